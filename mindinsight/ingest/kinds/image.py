"""Images: the encoded bytes as written (PNG from MindSpore), with width and height.

An image over ``limits.MAX_SAMPLE_BYTES`` is dropped before its bytes are copied out of the
record; a negative width or height (no writer means it) is kept as 0, "unknown". The bytes
kept per tag and per job are bounded, and a thinned-out image stays fetchable for a while
(``limits.EVICTED_IMAGE_SECONDS``): a page lists the steps, then fetches them.

TensorBoard files hold the same ``Summary.Image`` (field names shared, so ``decode`` reads both)
or a string tensor of the ``images`` plugin, ``[width, height, image, ...]``: of several images
of one step the first is kept.
"""

import numpy as np

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format.tb_tensors import tensor_strings
from mindinsight.ingest.kinds.base import Kind, Rejected, TensorBoardValues, bytes_codec

_MAX_BYTES = limits.MAX_SAMPLE_BYTES[PluginName.IMAGE]
_TOO_LARGE = Rejected.because("image_too_large", bytes=_MAX_BYTES)


def decode(value):
    image = value.image
    if image.ByteSize() > _MAX_BYTES:  # sized without copying the bytes out
        return _TOO_LARGE
    encoded = image.encoded_image
    return max(image.width, 0), max(image.height, 0), encoded, len(encoded)


def decode_image_tensor(value):
    """The first image of the ``images`` plugin's ``[width, height, encoded...]`` strings."""
    if value.tensor.ByteSize() > _MAX_BYTES:
        return _TOO_LARGE
    try:
        strings = tensor_strings(value.tensor)
        width, height = int(strings[0]), int(strings[1])
        encoded = strings[2]
    except (ValueError, IndexError):
        return None  # no image in it (a step may write none)
    return max(width, 0), max(height, 0), encoded, len(encoded)


KIND = Kind(
    PluginName.IMAGE,
    {"width": np.int32, "height": np.int32, "image": object, "nbytes": np.int64},
    limits.STEPS_PER_TAG[PluginName.IMAGE],
    value_field="image",
    decode=decode,
    tensorboard=TensorBoardValues({"image": decode}, {"images": decode_image_tensor}),
    bytes_per_tag=limits.BYTES_PER_TAG[PluginName.IMAGE],
    bytes_per_job=limits.BYTES_PER_JOB[PluginName.IMAGE],
    evicted_seconds=limits.EVICTED_IMAGE_SECONDS,
    codec=bytes_codec("image"),  # the encoded bytes as stored; width and height are plain columns
)
KINDS = (KIND,)
