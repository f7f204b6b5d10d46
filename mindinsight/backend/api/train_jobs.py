"""``/datavisual/train-jobs``, ``plugins``, ``single-job``, ``train-job-caches``."""

from marshmallow import Schema

from mindinsight.backend.api.args import TrainIdArgs
from mindinsight.backend.api.routing import Topic
from mindinsight.backend.api.shapes import BOOLEAN, INTEGER, STRING, array, enum, map_of, named, nullable, obj, one_of
from mindinsight.backend.params import BoolText, IntParam, StringList, Text
from mindinsight.backend.view_marks import IN_MEMORY, POOLED, REUSABLE, REUSABLE_POOLED
from mindinsight.cache.data_manager import BriefStatus
from mindinsight.conf.limits import MAX_TRAIN_JOBS_PAGE_LIMIT
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import PluginNotAvailableError, QuerySyntaxError, QueryValueError, TrainJobNotExistError
from mindinsight.services import train_jobs

TOPIC = Topic("train_jobs")
EXAMPLE_JOB = "./b_summary_ops"


# Tags per plugin: every plugin name, an empty list when the job has none (or is not cached).
PLUGIN_TAGS = named("PluginTags", obj({name: array(STRING) for name in PluginName.names()}))
CACHE_STATUS = enum(*(status.value for status in train_jobs.CacheStatus))
TRAIN_JOB = named(
    "TrainJob",
    obj(
        {
            "train_id": STRING,
            "relative_path": STRING,
            "create_time": STRING,
            "update_time": STRING,
            "profiler_dir": nullable(STRING),
            "profiler_type": STRING,
            "cache_status": CACHE_STATUS,
            "summary_files": INTEGER,
            "graph_files": INTEGER,
            "lineage_files": INTEGER,
            "dump_dir": nullable(STRING),
            "is_integrity": BOOLEAN,
            "skipped_records": INTEGER,
            "unreadable_files": array(obj({"path": STRING, "reason": STRING})),
            "unshown_values": array(obj({"plugin": nullable(STRING), "tag": nullable(STRING), "count": INTEGER})),
            "dropped_values": array(
                obj(
                    {
                        "plugin": nullable(STRING),
                        "tag": nullable(STRING),
                        "reason": nullable(STRING),  # in English
                        # a key of ingest.kinds.base.REFUSALS; a client meets codes added later too
                        "reason_code": nullable(STRING),
                        "reason_args": nullable(map_of(one_of(STRING, INTEGER))),
                        "count": INTEGER,
                    }
                )
            ),
            "plugins": PLUGIN_TAGS,
        },
        {"graph_mode": enum("static", "dynamic")},  # jobs with profiler output only
    ),
)


# The routes about one job, which must be known.
ONE_JOB = TOPIC.group(errors=(TrainJobNotExistError,), example={"train_id": EXAMPLE_JOB})


class TrainJobsArgs(Schema):
    offset = IntParam(minimum=0, range_message="'{name}' should be greater than or equal to 0.", load_default=0)
    limit = IntParam(minimum=1, maximum=MAX_TRAIN_JOBS_PAGE_LIMIT, sizes_answer=True, load_default=10)
    train_id = Text()
    # Ours: only the jobs a query over runs matches (README, "Query language").
    query = Text(metadata={"description": 'a query over runs, e.g. optimizer == "Adam" and loss.last < 0.2'})


class PluginsArgs(TrainIdArgs):
    manual_update = BoolText(load_default=False)


class SingleJobArgs(TrainIdArgs):
    plugin_name = Text(required=True)


class TrainJobCachesBody(Schema):
    train_ids = StringList(required=True)


@TOPIC.get(
    "/datavisual/train-jobs",
    serving=REUSABLE_POOLED,
    args=TrainJobsArgs(),
    errors=(QuerySyntaxError, QueryValueError),
    example={"train_id": EXAMPLE_JOB, "limit": 5},
    answer=obj(
        {
            "name": STRING,
            "total": INTEGER,
            "load_status": enum(*(status.value for status in BriefStatus)),
            "scan_stopped_at": nullable(INTEGER),
            "train_jobs": array(TRAIN_JOB),
        },
        # Ours: while the object store holding the base dir cannot be listed (the jobs read before stay).
        {"storage_error": obj({"error_code": STRING, "error_msg": STRING})},
    ),
)
def list_train_jobs(provider, offset, limit, train_id=None, query=None):
    """One page of train jobs (``offset`` is a page index), newest update first."""
    return train_jobs.list_train_jobs(provider, offset, limit, train_id, query)


# Not reusable: manual_update=true marks the job as used.
@ONE_JOB.get("/datavisual/plugins", serving=IN_MEMORY, args=PluginsArgs(), answer=obj({"plugins": PLUGIN_TAGS}))
def plugins(provider, train_id, manual_update):
    """Tags per plugin of a job; ``manual_update=true`` also puts it into the detail cache."""
    return train_jobs.plugins(provider, train_id, manual_update)


@ONE_JOB.get(
    "/datavisual/single-job",
    serving=REUSABLE,
    args=SingleJobArgs(),
    errors=(PluginNotAvailableError,),
    example={"plugin_name": PluginName.SCALAR.value},
    answer=obj({"train_jobs": array(obj({"id": STRING, "name": STRING, "tags": array(STRING)}))}),
)
def single_job(provider, train_id, plugin_name):
    """Tags of one plugin of a cached job."""
    return train_jobs.single_job(provider, train_id, plugin_name)


@TOPIC.post(
    "/datavisual/train-job-caches",
    serving=POOLED,
    body=TrainJobCachesBody(),
    example={"train_ids": [EXAMPLE_JOB]},
    changes_state=False,  # it loads jobs into the detail cache: nothing a user stored changes
    answer=obj({"cache_result": array(obj({"train_id": STRING, "cache_status": CACHE_STATUS}))}),
)
def train_job_caches(provider, train_ids):
    """Put jobs into the detail cache; each known job's status before the request."""
    return train_jobs.cache_train_jobs(provider, train_ids)
