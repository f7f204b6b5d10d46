"""Loss landscapes: the LossLandscape message as stored."""

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.ingest.kinds.base import Kind, detached, message_codec


def decode(value) -> tuple:
    return (detached(value.loss_landscape),)


KIND = Kind(
    PluginName.LOSS_LANDSCAPE,
    {"landscape": object},
    limits.steps_per_tag(PluginName.LOSS_LANDSCAPE),
    value_field="loss_landscape",
    decode=decode,
    codec=message_codec("landscape", summary_pb.LossLandscape),
)
KINDS = (KIND,)
