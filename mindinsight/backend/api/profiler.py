"""``/profile/*``: operator statistics, devices, meta info and tuning suggestions of a job's
profiler output."""

from marshmallow import Schema, fields

from mindinsight.backend.api.routing import Topic
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
EXAMPLE_DIR = {"profile": "vm_23733_20261123203458746_ascend_ms", "train_id": "./h_profiler_resnet"}
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


@TOPIC.post(
    "/profile/ops/search",
    serving=POOLED,
    changes_state=False,
    args=ProfileArgs(),
    body=SearchCondition(),
    errors=(
        ParamValueError,
        ParamTypeError,
        TrainJobNotExistError,
        ProfilerParamTypeError,
        ProfilerDirNotFoundError,
        ProfilerIOError,
        ProfilerPathError,
        ProfilerFileTooLargeError,
        ProfilerColumnNotExistError,
        ProfilerDeviceIdError,
        ProfilerOpTypeError,
        ProfilerGroupConditionError,
        ProfilerSortConditionError,
        ProfilerFilterConditionError,
    ),
    example={
        **EXAMPLE_DIR,
        "op_type": "cpu_op_type",
        "device_id": "0",
        "sort_condition": {"name": "total_compute_time", "type": "descending"},
        "group_condition": {"limit": 10, "offset": 0},
    },
)
def ops_search(manager, profile, train_id, **condition):
    """``{col_name, object, size}``: one filtered, sorted page of an operator view."""
    given = {name: value for name, value in condition.items() if value is not None}
    return profiler_ops.search_ops(manager.summary_base_dir, train_id, profile, given, manager.profiler_rows)


@TOPIC.get(
    "/profile/devices",
    serving=POOLED,
    args=ProfileArgs(),
    errors=DIR_ERRORS,
    example=EXAMPLE_DIR,
)
def profile_devices(manager, profile, train_id):
    """``{device_list, profiler_mode}`` of a job's profiler output."""
    return profiler_devices.devices(manager.summary_base_dir, train_id, profile)


@TOPIC.get(
    "/profile/profile_info",
    serving=POOLED,
    args=ProfileArgs(),
    errors=DIR_ERRORS,
    example=EXAMPLE_DIR,
)
def profile_info(manager, profile, train_id):
    """``{state, ms, mi}``: the MindSpore version that wrote the output, or ``{}``."""
    return profiler_summary.profile_info(manager.summary_base_dir, train_id, profile)


class ProposeArgs(ProfileArgs):
    device_id = Text(load_default=None)


@TOPIC.get(
    "/profile/summary/propose",
    serving=POOLED,
    args=ProposeArgs(),
    errors=(*DIR_ERRORS, ParamTypeError),
    example={**EXAMPLE_DIR, "device_id": "0"},
)
def summary_propose(manager, profile, train_id, device_id):
    """Tuning suggestions for one device, grouped by proposer (keys the client translates)."""
    return profiler_summary.propose(manager.summary_base_dir, train_id, profile, device_id)


class ClusterArgs(Schema):
    # Not ``required``: the original answers a missing one with 50546080.
    train_id = Text(load_default=None)


@TOPIC.get(
    "/profile/summary/cluster-propose",
    serving=POOLED,
    args=ClusterArgs(),
    errors=(ParamValueError, ProfilerParamValueError, TrainJobNotExistError, ProfilerDirNotFoundError),
    example={"train_id": "./h_profiler_resnet"},
)
def summary_cluster_propose(manager, train_id):
    """Cluster tuning suggestions of a job's newest profiler output (``{}`` without cluster files)."""
    return profiler_summary.cluster_propose(manager.summary_base_dir, train_id)
