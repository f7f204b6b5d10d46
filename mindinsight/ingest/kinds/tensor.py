"""Tensors: the TensorProto kept serialized, read as a numpy array only when a query asks.

MindSpore writes every tensor's values into ``float_data`` (integers and booleans too), as a
packed field: the values are then little-endian float32 bytes inside the serialized message,
and ``array()`` is a zero-copy numpy view on them. Other layouts (``double_data``,
``raw_data``, the varint-packed integer fields) are read as well. A tensor over
``limits.MAX_TENSOR_ELEMENTS`` keeps its shape and type only, as the original does. A tensor
with a negative dimension, or whose message is over ``limits.MAX_SAMPLE_BYTES``, is dropped at
ingest (numpy would read ``[-2, -3]`` as "infer these", which no tensor means). In the persistent
index a sample is its message bytes as read, dims and type (``CODEC``).
"""

import math

import numpy as np
from google.protobuf.message import DecodeError

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir
from mindinsight.format.wire import read_varint
from mindinsight.ingest.kinds.base import (
    Codec,
    Kind,
    Rejected,
    joined,
    object_column,
    pack_bytes,
    pack_ragged,
    unpack_bytes,
    unpack_ragged,
)

_MAX_BYTES = limits.MAX_SAMPLE_BYTES[PluginName.TENSOR]

# TensorProto field numbers (proto/mindinsight_anf_ir.proto).
_DIMS, _DATA_TYPE, _FLOAT_DATA, _INT32_DATA, _INT64_DATA, _DOUBLE_DATA, _UINT64_DATA, _RAW_DATA = range(1, 9)
_FIXED_WIDTH = {_FLOAT_DATA: np.dtype("<f4"), _DOUBLE_DATA: np.dtype("<f8")}
_VARINT_FIELDS = {_INT32_DATA: "int32_data", _INT64_DATA: "int64_data", _UINT64_DATA: "uint64_data"}
_VARINT_DTYPES = {"int32_data": np.int32, "int64_data": np.int64, "uint64_data": np.uint64}

# DataType -> the numpy type values are shown in (float_data holds them as float32).
NUMPY_TYPES = {
    anf_ir.DT_BOOL: np.bool_,
    anf_ir.DT_INT8: np.int8,
    anf_ir.DT_INT16: np.int16,
    anf_ir.DT_INT32: np.int32,
    anf_ir.DT_INT64: np.int64,
    anf_ir.DT_UINT8: np.uint8,
    anf_ir.DT_UINT16: np.uint16,
    anf_ir.DT_UINT32: np.uint32,
    anf_ir.DT_UINT64: np.uint64,
    anf_ir.DT_FLOAT16: np.float16,
    anf_ir.DT_FLOAT32: np.float32,
    anf_ir.DT_FLOAT64: np.float64,
}


class TensorSample:
    """One stored tensor: its serialized TensorProto (None when ``too_large``), dims and type."""

    __slots__ = ("serialized", "dims", "data_type", "too_large")

    def __init__(self, serialized: bytes | None, dims: tuple, data_type: int, too_large: bool):
        self.serialized, self.dims, self.data_type, self.too_large = serialized, dims, data_type, too_large

    @property
    def proto(self):
        """The TensorProto message (parsed on each call; None when too large)."""
        return None if self.serialized is None else anf_ir.TensorProto.FromString(self.serialized)

    def array(self) -> np.ndarray:
        """The values shaped by ``dims``: integer and bool tensors in their own type, floats as
        stored; an empty 1-D array when the tensor holds no values (or is too large)."""
        if self.serialized is None:
            return np.empty(0, dtype=np.float32)
        values = _values(self.serialized)
        if values.size == 0:
            return values
        shown = NUMPY_TYPES.get(self.data_type)
        if shown is not None and np.dtype(shown).kind in "biu" and values.dtype.kind == "f":
            values = values.astype(shown)
        return values.reshape(self.dims)

    @property
    def nbytes(self) -> int:
        """Bytes held (the serialized message)."""
        return 0 if self.serialized is None else len(self.serialized)

    def __repr__(self) -> str:
        return f"TensorSample(dims={self.dims}, data_type={self.data_type}, too_large={self.too_large})"


def _varint(buffer: bytes, pos: int) -> tuple[int, int]:
    value, pos = read_varint(buffer, pos, len(buffer))
    if value is None:
        raise ValueError("truncated varint")
    return value, pos


def _fields(serialized: bytes):
    """``(field number, wire type, start, end)`` of each top-level field; a length-delimited
    field's span is its payload, a scalar's is the value itself."""
    pos, size = 0, len(serialized)
    while pos < size:
        key, pos = _varint(serialized, pos)
        number, wire = key >> 3, key & 7
        start = pos
        if wire == 0:
            _, pos = _varint(serialized, pos)
        elif wire == 1:
            pos += 8
        elif wire == 5:
            pos += 4
        elif wire == 2:
            length, start = _varint(serialized, pos)
            pos = start + length
        else:
            raise ValueError(f"unsupported wire type {wire}")
        yield number, wire, start, pos


def _values(serialized: bytes) -> np.ndarray:
    """The flat values of a serialized TensorProto, in the first data field that holds any."""
    chunks: dict[int, list] = {}
    unpacked = False
    for number, wire, start, end in _fields(serialized):
        if number in _FIXED_WIDTH or number in _VARINT_FIELDS or number == _RAW_DATA:
            chunks.setdefault(number, []).append((start, end))
            unpacked = unpacked or (number != _RAW_DATA and wire != 2)
    if unpacked or any(number in _VARINT_FIELDS for number in chunks):
        return _values_from_message(serialized)
    memory = memoryview(serialized)
    for number in (_FLOAT_DATA, _DOUBLE_DATA):
        if number in chunks:
            parts = [np.frombuffer(memory[start:end], dtype=_FIXED_WIDTH[number]) for start, end in chunks[number]]
            values = parts[0] if len(parts) == 1 else np.concatenate(parts)
            if values.size:
                return values
    if _RAW_DATA in chunks:
        start, end = chunks[_RAW_DATA][-1]
        return _raw_values(serialized[start:end], serialized)
    return np.empty(0, dtype=np.float32)


def _values_from_message(serialized: bytes) -> np.ndarray:
    """Through the protobuf parser: fields written unpacked, or varint-packed integers."""
    proto = anf_ir.TensorProto.FromString(serialized)
    for name, dtype in (("float_data", np.float32), *_VARINT_DTYPES.items(), ("double_data", np.float64)):
        field = getattr(proto, name)
        if len(field):
            return np.fromiter(field, dtype=dtype, count=len(field))
    if proto.raw_data:
        return _raw_values(proto.raw_data, serialized)
    return np.empty(0, dtype=np.float32)


def _raw_values(raw: bytes, serialized: bytes) -> np.ndarray:
    proto_type = anf_ir.TensorProto.FromString(serialized).data_type
    dtype = np.dtype(NUMPY_TYPES.get(proto_type, np.uint8)).newbyteorder("<")
    usable = len(raw) - len(raw) % dtype.itemsize
    return np.frombuffer(raw[:usable], dtype=dtype)


def value_count(serialized: bytes) -> int:
    """How many values a serialized TensorProto holds (without decoding them)."""
    return int(_values(serialized).size)


def tensor_sample(tensor) -> TensorSample | Rejected:
    """The stored form of a TensorProto, or ``Rejected`` when its dims are negative, it is too
    large to keep or its values do not fill its dims (the original cannot reshape such a tensor
    and drops it)."""
    dims = tuple(int(d) for d in tensor.dims)
    if any(d < 0 for d in dims):
        return Rejected.because("negative_dims", dims=str(list(dims)))
    elements = math.prod(dims)  # exact: numpy would wrap around on absurd dims
    if elements > limits.MAX_TENSOR_ELEMENTS:
        return TensorSample(None, dims, int(tensor.data_type), True)
    if tensor.ByteSize() > _MAX_BYTES:
        return Rejected.because("tensor_too_large", bytes=_MAX_BYTES)
    serialized = tensor.SerializeToString()
    count = value_count(serialized)
    if count not in (0, elements):
        return Rejected.because("values_do_not_fill_dims", count=count, dims=str(list(dims)))
    return TensorSample(serialized, dims, int(tensor.data_type), False)


def decode(value):
    sample = tensor_sample(value.tensor)
    return sample if not isinstance(sample, TensorSample) else (sample, sample.nbytes)


def _encode(columns: dict) -> dict:
    samples = columns["tensor"]
    data, ends = pack_bytes([sample.serialized or b"" for sample in samples])
    dims, dims_ends = pack_ragged([sample.dims for sample in samples], np.int64)
    return {
        "message": data,
        "message.ends": ends,
        "flags": np.array([(sample.serialized is not None) + 2 * sample.too_large for sample in samples], np.uint8),
        "dims": dims,
        "dims.ends": dims_ends,
        "data_type": np.array([sample.data_type for sample in samples], dtype=np.int64),
    }


def _decode(arrays: dict, count: int, _shared: dict) -> dict:
    messages = unpack_bytes(arrays["message"], arrays["message.ends"], count)
    dims = unpack_ragged(arrays["dims"], arrays["dims.ends"], count, np.int64)
    flags, data_types = joined(arrays["flags"], np.uint8), joined(arrays["data_type"], np.int64)
    if flags.size != count or data_types.size != count or np.any(flags > 3):
        raise ValueError("tensor flags or types do not fit")
    samples = []
    for serialized, shape, flag, data_type in zip(messages, dims, flags.tolist(), data_types.tolist()):
        shape = tuple(shape.tolist())
        if any(d < 0 for d in shape):
            raise ValueError(f"tensor dims {list(shape)}")
        present = bool(flag & 1)
        # What ingest checked, checked again: a query reads the values without further checks.
        try:
            if present and value_count(serialized) not in (0, math.prod(shape)):
                raise ValueError("tensor values that do not fill its dims")
        except DecodeError as error:
            raise ValueError(f"a tensor message that does not parse: {error}") from error
        samples.append(TensorSample(serialized if present else None, shape, data_type, bool(flag & 2)))
    return {"tensor": object_column(samples)}


CODEC = Codec(_encode, _decode)

KIND = Kind(
    PluginName.TENSOR,
    {"tensor": object, "nbytes": np.int64},
    limits.STEPS_PER_TAG[PluginName.TENSOR],
    max_tags=limits.MAX_TAGS_PER_PLUGIN[PluginName.TENSOR],
    value_field="tensor",
    decode=decode,
    bytes_per_tag=limits.BYTES_PER_TAG[PluginName.TENSOR],
    bytes_per_job=limits.BYTES_PER_JOB[PluginName.TENSOR],
    codec=CODEC,
)
KINDS = (KIND,)
