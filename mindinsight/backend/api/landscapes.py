"""``/datavisual/landscape/*``: interval list and loss landscapes of one or several jobs."""

from mindinsight.backend.api.args import ComparedJobsArgs, TrainIdArgs
from mindinsight.backend.api.routing import Topic
from mindinsight.backend.api.shapes import INTEGER, NUMBER, STRING, array, named, nullable, number_row, obj, one_of
from mindinsight.backend.params import Text
from mindinsight.backend.view_marks import REUSABLE, REUSABLE_POOLED
from mindinsight.errors import TrainJobNotExistError
from mindinsight.services import landscapes

TOPIC = Topic("landscapes")


# A tensor's values nested by its dims (flat when they disagree): a 1-D axis, a 2-D grid.
NUMBERS = array(one_of(NUMBER, array(NUMBER)))
POINTS = {"x": NUMBERS, "y": NUMBERS, "z": NUMBERS}
LANDSCAPE = named(
    "Landscape",
    obj(
        {
            "train_id": STRING,
            "points": obj(POINTS),
            "metadata": obj(
                {
                    "decomposition": STRING,
                    "unit": STRING,
                    "step_per_epoch": INTEGER,
                    "network": nullable(STRING),
                    "learning_rate": nullable(STRING),
                    "optimizer": nullable(STRING),
                    "metric": obj(extra=True),  # the job's evaluation metrics as written
                    "loss": nullable(STRING),
                }
            ),
            "convergence_point": number_row(3),
        },
        {"path": obj({**POINTS, "intervals": array(INTEGER)})},  # interval landscapes only
    ),
)
# In place of a job's landscape: why it has none (50540002, 50545005, 50545017).
LANDSCAPE_ERROR = named("LandscapeError", obj({"error_code": STRING, "train_id": STRING}))


class LandscapeArgs(ComparedJobsArgs):
    type = Text(load_default=landscapes.INTERVAL)
    interval_id = Text(load_default=None)
    metadata = Text(load_default=None)  # sent by the UI, ignored as by the original


@TOPIC.get(
    "/datavisual/landscape/intervals",
    serving=REUSABLE,
    args=TrainIdArgs(),
    errors=(TrainJobNotExistError,),
    example={"train_id": "./d_landscape_epoch"},
    answer=obj({"intervals": array(obj({"id": STRING, "value": array(INTEGER, minItems=2, maxItems=2)}))}),
)
def landscape_intervals(provider, train_id):
    """``{intervals: [{id, value: [first, last]}]}``, ids stable across restarts."""
    return landscapes.intervals(provider, train_id)


@TOPIC.get(
    "/datavisual/landscape/landscapes",
    serving=REUSABLE_POOLED,
    args=LandscapeArgs(),
    example={"train_id": ["./d_landscape_epoch"], "type": "final"},
    answer=obj({"landscapes": array(one_of(LANDSCAPE, LANDSCAPE_ERROR))}),
)
def landscape_list(provider, train_id, type, interval_id, metadata=None):
    """The matching landscape of each job; per-job failures as ``{error_code, train_id}`` items."""
    return landscapes.landscapes(provider, train_id, type, interval_id)
