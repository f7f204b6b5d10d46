"""Scalars: one float per step (``Summary.Value.scalar_value``; in TensorBoard files
``simple_value``, or a one-value tensor of the ``scalars`` plugin as TF2 and
``torch.utils.tensorboard`` write them)."""

import numpy as np

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format.tb_tensors import tensor_array
from mindinsight.ingest.kinds.base import Kind, Rejected, TensorBoardValues


def decode(value) -> tuple:
    return (value.scalar_value,)


def decode_simple_value(value) -> tuple:
    return (value.simple_value,)


def decode_scalar_tensor(value):
    try:
        values = tensor_array(value.tensor, 1)
    except ValueError as error:
        return Rejected.because("not_a_scalar", error=str(error))
    if values.size != 1:
        return Rejected.because("empty_scalar_tensor")
    return (float(values.reshape(-1)[0]),)


KIND = Kind(
    PluginName.SCALAR,
    {"value": np.float32},
    limits.STEPS_PER_TAG[PluginName.SCALAR],
    value_field="scalar_value",
    decode=decode,
    tensorboard=TensorBoardValues({"simple_value": decode_simple_value}, {"scalars": decode_scalar_tensor}),
)
KINDS = (KIND,)
