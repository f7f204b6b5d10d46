"""Scalars: one float per step (``Summary.Value.scalar_value``)."""

import numpy as np

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.ingest.kinds.base import Kind


def decode(value) -> tuple:
    return (value.scalar_value,)


KIND = Kind(
    PluginName.SCALAR,
    {"value": np.float32},
    limits.STEPS_PER_TAG[PluginName.SCALAR],
    value_field="scalar_value",
    decode=decode,
)
KINDS = (KIND,)
