"""``/datavisual/scalar/metadata`` and the multi-job ``/datavisual/scalars``."""

from mindinsight.backend.api.args import ComparedJobsArgs, TagArgs
from mindinsight.backend.api.routing import Topic
from mindinsight.backend.api.shapes import INTEGER, NUMBER, STRING, array, enum, named, nullable, obj
from mindinsight.backend.params import TextList
from mindinsight.backend.view_marks import REUSABLE, REUSABLE_POOLED
from mindinsight.conf.limits import MAX_COMPARED_SCALAR_TAGS
from mindinsight.errors import ParamTypeError, ScalarNotExistError, TrainJobNotExistError
from mindinsight.services import scalars

TOPIC = Topic("scalars")


# A NaN/Inf value is null, and ``non_finite`` says which it was.
SCALAR_POINT = named(
    "ScalarPoint",
    obj(
        {"wall_time": NUMBER, "step": INTEGER, "value": nullable(NUMBER)},
        {"non_finite": enum("NaN", "Infinity", "-Infinity")},
    ),
)


class CompareArgs(ComparedJobsArgs):
    tag = TextList(max_distinct=MAX_COMPARED_SCALAR_TAGS, load_default=list)


@TOPIC.get(
    "/datavisual/scalar/metadata",
    serving=REUSABLE,
    args=TagArgs(),
    errors=(TrainJobNotExistError, ScalarNotExistError, ParamTypeError),
    example={"train_id": "./b_summary_ops", "tag": "loss_op/scalar"},
    answer=obj({"metadatas": array(SCALAR_POINT)}),
)
def scalar_metadata(provider, train_id, tag):
    """Every kept point ``{wall_time, step, value}`` of one scalar tag (NaN/Inf as null)."""
    return scalars.scalar_metadata(provider, train_id, tag)


@TOPIC.get(
    "/datavisual/scalars",
    serving=REUSABLE_POOLED,
    args=CompareArgs(),
    example={"train_id": ["./b_summary_ops"], "tag": ["loss_op/scalar"]},
    answer=obj({"scalars": array(obj({"train_id": STRING, "tag": STRING, "values": array(SCALAR_POINT)}))}),
)
def scalars_comparison(provider, train_id, tag):
    """Series of every (job, tag) pair that exists; unknown jobs or tags are left out."""
    return scalars.scalars_comparison(provider, train_id, tag)
