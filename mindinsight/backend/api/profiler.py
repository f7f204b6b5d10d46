"""``/profile/*``: operator statistics and devices of a job's profiler output."""

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
    ProfilerFilterConditionError,
    ProfilerGroupConditionError,
    ProfilerIOError,
    ProfilerOpTypeError,
    ProfilerParamTypeError,
    ProfilerSortConditionError,
    TrainJobNotExistError,
)
from mindinsight.services import profiler_devices, profiler_ops

TOPIC = Topic("profiler")


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
    args=ProfileArgs(),
    body=SearchCondition(),
    errors=(
        ParamValueError,
        ParamTypeError,
        TrainJobNotExistError,
        ProfilerParamTypeError,
        ProfilerDirNotFoundError,
        ProfilerIOError,
        ProfilerColumnNotExistError,
        ProfilerDeviceIdError,
        ProfilerOpTypeError,
        ProfilerGroupConditionError,
        ProfilerSortConditionError,
        ProfilerFilterConditionError,
    ),
    example={
        "profile": "vm_23733_20261123203458746_ascend_ms",
        "train_id": "./h_profiler_resnet",
        "op_type": "cpu_op_type",
        "device_id": "0",
        "sort_condition": {"name": "total_compute_time", "type": "descending"},
        "group_condition": {"limit": 10, "offset": 0},
    },
)
def ops_search(manager, profile, train_id, **condition):
    """``{col_name, object, size}``: one filtered, sorted page of an operator view."""
    given = {name: value for name, value in condition.items() if value is not None}
    return profiler_ops.search_ops(manager.summary_base_dir, train_id, profile, given)


@TOPIC.get(
    "/profile/devices",
    serving=POOLED,
    args=ProfileArgs(),
    errors=(ParamValueError, TrainJobNotExistError, ProfilerDirNotFoundError, ProfilerIOError),
    example={"profile": "vm_23733_20261123203458746_ascend_ms", "train_id": "./h_profiler_resnet"},
)
def profile_devices(manager, profile, train_id):
    """``{device_list, profiler_mode}`` of a job's profiler output."""
    return profiler_devices.devices(manager.summary_base_dir, train_id, profile)
