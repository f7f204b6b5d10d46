"""``/datavisual/scalar/metadata`` and the multi-job ``/datavisual/scalars``."""

from marshmallow import Schema

from mindinsight.backend.api.routing import Topic
from mindinsight.backend.params import Text, TextList
from mindinsight.backend.view_marks import REUSABLE, REUSABLE_POOLED
from mindinsight.conf.limits import MAX_COMPARED_SCALAR_TAGS, MAX_COMPARED_TRAIN_JOBS
from mindinsight.errors import ParamTypeError, ScalarNotExistError, TrainJobNotExistError
from mindinsight.services import scalars

TOPIC = Topic("scalars")


class TagArgs(Schema):
    train_id = Text(required=True)
    tag = Text(required=True)


class CompareArgs(Schema):
    # A repeated value counts once; more distinct ones than a comparison shows are refused.
    train_id = TextList(max_distinct=MAX_COMPARED_TRAIN_JOBS, load_default=list)
    tag = TextList(max_distinct=MAX_COMPARED_SCALAR_TAGS, load_default=list)


@TOPIC.get(
    "/datavisual/scalar/metadata",
    serving=REUSABLE,
    args=TagArgs(),
    errors=(TrainJobNotExistError, ScalarNotExistError, ParamTypeError),
    example={"train_id": "./b_summary_ops", "tag": "loss_op/scalar"},
)
def scalar_metadata(manager, train_id, tag):
    """Every kept point ``{wall_time, step, value}`` of one scalar tag (NaN/Inf as null)."""
    return scalars.scalar_metadata(manager, train_id, tag)


@TOPIC.get(
    "/datavisual/scalars",
    serving=REUSABLE_POOLED,
    args=CompareArgs(),
    example={"train_id": ["./b_summary_ops"], "tag": ["loss_op/scalar"]},
)
def scalars_comparison(manager, train_id, tag):
    """Series of every (job, tag) pair that exists; unknown jobs or tags are left out."""
    return scalars.scalars_comparison(manager, train_id, tag)
