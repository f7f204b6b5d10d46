"""``/datavisual/landscape/*``: interval list and loss landscapes of one or several jobs."""

from marshmallow import Schema

from mindinsight.backend.api.routing import Topic
from mindinsight.backend.params import Text, TextList
from mindinsight.backend.view_marks import REUSABLE, REUSABLE_POOLED
from mindinsight.conf.limits import MAX_COMPARED_TRAIN_JOBS
from mindinsight.errors import TrainJobNotExistError
from mindinsight.services import landscapes

TOPIC = Topic("landscapes")


class IntervalArgs(Schema):
    train_id = Text(required=True)


class LandscapeArgs(Schema):
    train_id = TextList(max_distinct=MAX_COMPARED_TRAIN_JOBS, load_default=list)
    type = Text(load_default=landscapes.INTERVAL)
    interval_id = Text(load_default=None)
    metadata = Text(load_default=None)  # sent by the UI, ignored as by the original


@TOPIC.get(
    "/datavisual/landscape/intervals",
    serving=REUSABLE,
    args=IntervalArgs(),
    errors=(TrainJobNotExistError,),
    example={"train_id": "./d_landscape_epoch"},
)
def landscape_intervals(manager, train_id):
    """``{intervals: [{id, value: [first, last]}]}``, ids stable across restarts."""
    return landscapes.intervals(manager, train_id)


@TOPIC.get(
    "/datavisual/landscape/landscapes",
    serving=REUSABLE_POOLED,
    args=LandscapeArgs(),
    example={"train_id": ["./d_landscape_epoch"], "type": "final"},
)
def landscape_list(manager, train_id, type, interval_id, metadata=None):
    """The matching landscape of each job; per-job failures as ``{error_code, train_id}`` items."""
    return landscapes.landscapes(manager, train_id, type, interval_id)
