"""Tensors: the TensorProto as stored; one over the element limit is kept as its shape only."""

from dataclasses import dataclass

import numpy as np

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.ingest.kinds.base import Kind, detached


@dataclass
class TensorSample:
    """A tensor as stored; ``too_large`` when it exceeds the element limit (kept empty)."""

    proto: object
    dims: tuple
    data_type: int
    too_large: bool


def tensor_sample(tensor) -> TensorSample:
    dims = tuple(int(d) for d in tensor.dims)
    too_large = int(np.prod(dims, dtype=np.int64)) > limits.MAX_TENSOR_ELEMENTS if dims else False
    return TensorSample(None if too_large else tensor, dims, int(tensor.data_type), too_large)


def decode(value) -> tuple:
    return (tensor_sample(detached(value.tensor)),)


KIND = Kind(
    PluginName.TENSOR,
    {"tensor": object},
    limits.STEPS_PER_TAG[PluginName.TENSOR],
    max_tags=limits.MAX_TAGS_PER_PLUGIN[PluginName.TENSOR],
    value_field="tensor",
    decode=decode,
    lazy=True,
)
