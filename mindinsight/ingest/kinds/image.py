"""Images: the encoded bytes as written (PNG from MindSpore), with width and height."""

import numpy as np

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.ingest.kinds.base import Kind


def decode(value) -> tuple:
    image = value.image
    return image.width, image.height, image.encoded_image


KIND = Kind(
    PluginName.IMAGE,
    {"width": np.int32, "height": np.int32, "image": object},
    limits.STEPS_PER_TAG[PluginName.IMAGE],
    value_field="image",
    decode=decode,
)
