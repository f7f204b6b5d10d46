"""``/datavisual/histograms``: every kept step of a histogram tag on one bin grid."""

from mindinsight.backend.api.routing import Topic
from mindinsight.backend.api.scalars import TagArgs
from mindinsight.backend.view_marks import REUSABLE
from mindinsight.errors import HistogramNotExistError, TrainJobNotExistError
from mindinsight.services import histograms

TOPIC = Topic("histograms")


@TOPIC.get(
    "/datavisual/histograms",
    serving=REUSABLE,
    args=TagArgs(),
    errors=(TrainJobNotExistError, HistogramNotExistError),
    example={"train_id": "./b_summary_ops", "tag": "fc1_out/histogram"},
)
def histogram_steps(manager, train_id, tag):
    """Every kept step ``{wall_time, step, buckets: [[left, width, count]]}`` of one tag."""
    return histograms.histograms(manager, train_id, tag)
