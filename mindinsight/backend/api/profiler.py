"""``/profile/*``: operator statistics, devices, meta info and tuning suggestions of a job's
profiler output."""

from marshmallow import Schema, fields

from mindinsight.backend.api.routing import Topic
from mindinsight.backend.api.shapes import (
    ANY,
    BOOLEAN,
    EMPTY_OBJECT,
    INTEGER,
    NUMBER,
    STRING,
    array,
    named,
    nullable,
    obj,
    one_of,
    or_empty,
)
from mindinsight.backend.params import Text
from mindinsight.backend.view_marks import POOLED
from mindinsight.errors import (
    ParamTypeError,
    ParamValueError,
    ProfilerColumnNotExistError,
    ProfilerDeviceIdError,
    ProfilerDirNotFoundError,
    ProfilerFileTooLargeError,
    ProfilerFilterConditionError,
    ProfilerGroupConditionError,
    ProfilerIOError,
    ProfilerOpTypeError,
    ProfilerParamTypeError,
    ProfilerParamValueError,
    ProfilerPathError,
    ProfilerSortConditionError,
    TrainJobNotExistError,
)
from mindinsight.services import profiler_devices, profiler_ops, profiler_summary

TOPIC = Topic("profiler")
EXAMPLE_JOB = "./h_profiler_resnet"
# What every read of a named profiler directory can answer (a file outside the base dir, not
# a regular file or beyond the readers' bounds: 50546081, 50546085, 50546086).
DIR_ERRORS = (
    ParamValueError,
    TrainJobNotExistError,
    ProfilerDirNotFoundError,
    ProfilerIOError,
    ProfilerPathError,
    ProfilerFileTooLargeError,
)


class ProfileArgs(Schema):
    # Not ``required``: the original answers a missing one with 50540002, not 50540003.
    profile = Text(load_default=None)
    train_id = Text(load_default=None)


class SearchCondition(Schema):
    """The search condition body; every part is checked by the service with the original's codes."""

    op_type = fields.Raw(load_default=None)
    device_id = fields.Raw(load_default="0")
    filter_condition = fields.Raw(load_default=None)
    sort_condition = fields.Raw(load_default=None)
    group_condition = fields.Raw(load_default=None)


# Every profiler route reads a job's profiler output in the pool; most read one named directory of it.
PROFILER = TOPIC.group(serving=POOLED, example={"train_id": EXAMPLE_JOB})
PROFILE_DIR = PROFILER.group(
    args=ProfileArgs(), errors=DIR_ERRORS, example={"profile": "vm_23733_20261123203458746_ascend_ms"}
)
# What a search condition can be refused with: each part is checked with the original's code.
SEARCH_ERRORS = (
    ParamTypeError,
    ProfilerParamTypeError,
    ProfilerColumnNotExistError,
    ProfilerDeviceIdError,
    ProfilerOpTypeError,
    ProfilerGroupConditionError,
    ProfilerSortConditionError,
    ProfilerFilterConditionError,
)
# state: whether this reader understands the output of that MindSpore version
PROFILER_VERSIONS = named("ProfilerVersions", obj({"state": BOOLEAN, "ms": STRING, "mi": STRING}))


@PROFILE_DIR.post(
    "/profile/ops/search",
    changes_state=False,
    body=SearchCondition(),
    errors=SEARCH_ERRORS,
    answer=obj(
        # one row per operator, a cell per column: text, a number or null
        {"col_name": array(STRING), "object": array(array(one_of(nullable(STRING), NUMBER))), "size": INTEGER}
    ),
    example={
        "op_type": "cpu_op_type",
        "device_id": "0",
        "sort_condition": {"name": "total_compute_time", "type": "descending"},
        "group_condition": {"limit": 10, "offset": 0},
    },
)
def ops_search(provider, profile, train_id, **condition):
    """``{col_name, object, size}``: one filtered, sorted page of an operator view."""
    given = {name: value for name, value in condition.items() if value is not None}
    return profiler_ops.search_ops(provider, train_id, profile, given)


@PROFILE_DIR.get("/profile/devices", answer=obj({"device_list": array(STRING), "profiler_mode": STRING}))
def profile_devices(provider, profile, train_id):
    """``{device_list, profiler_mode}`` of a job's profiler output."""
    return profiler_devices.devices(provider, train_id, profile)


@PROFILE_DIR.get("/profile/profile_info", answer=or_empty(PROFILER_VERSIONS))
def profile_info(provider, profile, train_id):
    """``{state, ms, mi}``: the MindSpore version that wrote the output, or ``{}``."""
    return profiler_summary.profile_info(provider, train_id, profile)


class ProposeArgs(ProfileArgs):
    device_id = Text(load_default=None)


@PROFILE_DIR.get(
    "/profile/summary/propose",
    args=ProposeArgs(),
    errors=(ParamTypeError,),
    example={"device_id": "0"},
    # A type label per proposer that found something, and what it proposes (free form).
    answer=obj({}, {key: ANY for key in profiler_summary.SHOWN_SUGGESTIONS}),
)
def summary_propose(provider, profile, train_id, device_id):
    """Tuning suggestions for one device, grouped by proposer (keys the client translates)."""
    return profiler_summary.propose(provider, train_id, profile, device_id)


class ClusterArgs(Schema):
    # Not ``required``: the original answers a missing one with 50546080.
    train_id = Text(load_default=None)


@PROFILER.get(
    "/profile/summary/cluster-propose",
    args=ClusterArgs(),
    errors=(ParamValueError, ProfilerParamValueError, TrainJobNotExistError, ProfilerDirNotFoundError),
    answer=EMPTY_OBJECT,  # the cluster analysis is not built: {} or a refusal
)
def summary_cluster_propose(provider, train_id):
    """Cluster tuning suggestions of a job's newest profiler output (``{}`` without cluster files)."""
    return profiler_summary.cluster_propose(provider, train_id)
