"""``/datavisual/histograms``: every kept step of a histogram tag on one bin grid."""

from mindinsight.backend.api.per_tag import PerTagTopic, step_rows
from mindinsight.backend.api.shapes import STRING, array, number_row, obj
from mindinsight.services import histograms

TOPIC = PerTagTopic("histograms", histograms.KIND, example_tag="fc1_out/histogram")


@TOPIC.tag_get(
    "/datavisual/histograms",
    answer=obj(
        {
            "train_id": STRING,
            "tag": STRING,
            # every step on one grid of buckets [left, width, count]
            "histograms": step_rows({"buckets": array(number_row(3))}),
        }
    ),
)
def histogram_steps(provider, train_id, tag):
    """Every kept step ``{wall_time, step, buckets: [[left, width, count]]}`` of one tag."""
    return histograms.histograms(provider, train_id, tag)
