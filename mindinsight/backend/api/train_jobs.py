"""``/datavisual/train-jobs``, ``plugins``, ``single-job``, ``train-job-caches``."""

from marshmallow import Schema

from mindinsight.backend.api.routing import Topic
from mindinsight.backend.params import BoolText, IntParam, StringList, Text
from mindinsight.backend.view_marks import IN_MEMORY, POOLED, REUSABLE, REUSABLE_POOLED
from mindinsight.conf.limits import MAX_TRAIN_JOBS_PAGE_LIMIT
from mindinsight.errors import PluginNotAvailableError, TrainJobNotExistError
from mindinsight.services import train_jobs

TOPIC = Topic("train_jobs")
EXAMPLE_JOB = "./b_summary_ops"


class TrainJobsArgs(Schema):
    offset = IntParam(minimum=0, range_message="'{name}' should be greater than or equal to 0.", load_default=0)
    limit = IntParam(minimum=1, maximum=MAX_TRAIN_JOBS_PAGE_LIMIT, sizes_answer=True, load_default=10)
    train_id = Text()


class PluginsArgs(Schema):
    train_id = Text(required=True)
    manual_update = BoolText(load_default=False)


class SingleJobArgs(Schema):
    train_id = Text(required=True)
    plugin_name = Text(required=True)


class TrainJobCachesBody(Schema):
    train_ids = StringList(required=True)


@TOPIC.get(
    "/datavisual/train-jobs",
    serving=REUSABLE_POOLED,
    args=TrainJobsArgs(),
    example={"train_id": EXAMPLE_JOB, "limit": 5},
)
def list_train_jobs(manager, offset, limit, train_id=None):
    """One page of train jobs (``offset`` is a page index), newest update first."""
    return train_jobs.list_train_jobs(manager, offset, limit, train_id)


# Not reusable: manual_update=true marks the job as used.
@TOPIC.get(
    "/datavisual/plugins",
    serving=IN_MEMORY,
    args=PluginsArgs(),
    errors=(TrainJobNotExistError,),
    example={"train_id": EXAMPLE_JOB},
)
def plugins(manager, train_id, manual_update):
    """Tags per plugin of a job; ``manual_update=true`` also puts it into the detail cache."""
    return train_jobs.plugins(manager, train_id, manual_update)


@TOPIC.get(
    "/datavisual/single-job",
    serving=REUSABLE,
    args=SingleJobArgs(),
    errors=(TrainJobNotExistError, PluginNotAvailableError),
    example={"train_id": EXAMPLE_JOB, "plugin_name": "scalar"},
)
def single_job(manager, train_id, plugin_name):
    """Tags of one plugin of a cached job."""
    return train_jobs.single_job(manager, train_id, plugin_name)


@TOPIC.post(
    "/datavisual/train-job-caches",
    serving=POOLED,
    body=TrainJobCachesBody(),
    example={"train_ids": [EXAMPLE_JOB]},
    changes_state=False,  # it loads jobs into the detail cache: nothing a user stored changes
)
def train_job_caches(manager, train_ids):
    """Put jobs into the detail cache; each known job's status before the request."""
    return train_jobs.cache_train_jobs(manager, train_ids)
