"""Values of a TensorBoard ``TensorProto`` (``proto/tensorboard_event.proto``) as numpy arrays.

A tensor keeps its values either packed little-endian in ``tensor_content`` or listed in the
``*_val`` field of its dtype; a listed field shorter than the shape repeats its last value (one
value stands for the whole tensor), as TensorFlow reads it. The element count a shape claims is
checked against a bound before anything is allocated.
"""

import math

import numpy as np

from mindinsight.format.proto import tensorboard_event_pb2 as tb_pb

_DT = tb_pb.DataType
# dtype -> (numpy dtype of the packed content, the listed field)
_NUMERIC = {
    _DT.DT_FLOAT: (np.float32, "float_val"),
    _DT.DT_DOUBLE: (np.float64, "double_val"),
    _DT.DT_HALF: (np.float16, "half_val"),
    _DT.DT_INT8: (np.int8, "int_val"),
    _DT.DT_INT16: (np.int16, "int_val"),
    _DT.DT_INT32: (np.int32, "int_val"),
    _DT.DT_INT64: (np.int64, "int64_val"),
    _DT.DT_UINT8: (np.uint8, "int_val"),
    _DT.DT_UINT16: (np.uint16, "int_val"),
    _DT.DT_UINT32: (np.uint32, "uint32_val"),
    _DT.DT_UINT64: (np.uint64, "uint64_val"),
    _DT.DT_BOOL: (np.bool_, "bool_val"),
}


def tensor_shape(tensor) -> tuple[int, ...]:
    """The tensor's dimensions (a negative, unknown size counts as 0)."""
    return tuple(max(dim.size, 0) for dim in tensor.tensor_shape.dim)


def tensor_array(tensor, max_elements: int) -> np.ndarray:
    """The numeric values of ``tensor`` shaped as it says; ValueError when it is not numeric,
    holds more than ``max_elements`` values or its data does not fit its shape."""
    kind = _NUMERIC.get(tensor.dtype)
    if kind is None:
        raise ValueError(f"not a numeric tensor (dtype {tensor.dtype})")
    dtype, listed_field = kind
    shape = tensor_shape(tensor)
    count = math.prod(shape)
    if count > max_elements:
        raise ValueError(f"{count} values, over {max_elements}")
    if tensor.tensor_content:
        values = np.frombuffer(tensor.tensor_content, dtype=np.dtype(dtype).newbyteorder("<"))
        if values.size != count:
            raise ValueError(f"{values.size} values for shape {list(shape)}")
        return values.astype(dtype).reshape(shape)
    listed = getattr(tensor, listed_field)
    if len(listed) > count:
        raise ValueError(f"{len(listed)} values for shape {list(shape)}")
    if tensor.dtype == _DT.DT_HALF:  # half_val holds the 16 bits of each value
        values = np.asarray(listed, dtype=np.uint16).view(np.float16)
    else:
        values = np.asarray(listed, dtype=dtype)
    if values.size < count:
        fill = values[-1] if values.size else dtype(0)
        values = np.concatenate((values, np.full(count - values.size, fill, dtype=dtype)))
    return values.reshape(shape)


def tensor_strings(tensor) -> list[bytes]:
    """The byte strings of a ``DT_STRING`` tensor, flat; ValueError for another dtype."""
    if tensor.dtype != _DT.DT_STRING:
        raise ValueError("not a string tensor")
    return list(tensor.string_val)
