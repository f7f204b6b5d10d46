"""Operator statistics of a job's profiler output (``POST profile/ops/search``).

A search condition names a view (``op_type``), a device, filters, a sort and a page; the answer is
``{col_name, object: [rows], size: rows after filtering}``. Views are read from the parsed CSV
files the profiler wrote; a view whose file is absent answers no rows, as the original does.
The rows come from the data provider (read by ``ingest/profiler_csv.py``, kept by
``cache/profiler_rows.py``).
"""

from mindinsight.cache.provider import DataProvider
from mindinsight.errors import (
    ParamTypeError,
    ParamValueError,
    ProfilerColumnNotExistError,
    ProfilerDeviceIdError,
    ProfilerFilterConditionError,
    ProfilerGroupConditionError,
    ProfilerOpTypeError,
    ProfilerParamTypeError,
    ProfilerSortConditionError,
)

FILTER_KEYS = ("in", "not_in", "partial_match_str_in", "display_op_type", "step")
GROUP_LIMIT = (1, 100)
GROUP_MAX_OFFSET = 1_000_000

# Column sets of every view the original accepts (their order is the answer's).
VIEW_COLUMNS = {
    "aicore_type": ["op_type", "total_time", "execution_frequency", "percent"],
    "aicore_detail": [
        "op_name",
        "op_type",
        "avg_execution_time",
        "execution_frequency",
        "MFLOPs(10^6 cube)",
        "GFLOPS(10^9 cube)",
        "MFLOPs(10^6 vector)",
        "GFLOPS(10^9 vector)",
        "full_op_name",
    ],  # fmt: skip
    "aicpu_type": ["op_type", "total_time", "execution_frequency", "percent"],
    "aicpu_detail": [
        "op_name",
        "serial_number",
        "op_type",
        "avg_execution_time",
        "dispatch_time",
        "execution_frequency",
        "run_start",
        "run_end",
    ],  # fmt: skip
    "gpu_op_type": ["op_type", "type_occurrences", "total_time", "proportion", "avg_time"],
    "gpu_op_info": [
        "op_side",
        "op_type",
        "op_name",
        "op_full_name",
        "op_occurrences",
        "op_total_time",
        "op_avg_time",
        "proportion",
        "cuda_activity_cost_time",
        "cuda_activity_call_count",
    ],  # fmt: skip
    "gpu_cuda_activity": [
        "name",
        "type",
        "op_full_name",
        "stream_id",
        "block_dim",
        "grid_dim",
        "occurrences",
        "total_duration",
        "avg_duration",
        "max_duration",
        "min_duration",
    ],  # fmt: skip
    "gpu_op_type_info": ["op_side", "op_type", "op_name", "duration"],
    "gpu_cuda_type_info": ["op_type", "op_name", "op_full_name", "duration"],
    "cpu_op_type": [
        "op_type",
        "type_occurrences",
        "execution_frequency",
        "total_compute_time",
        "avg_time",
        "total_time_proportion",
    ],  # fmt: skip
    "cpu_op_info": [
        "op_side",
        "op_type",
        "op_name",
        "full_op_name",
        "op_occurrences",
        "op_total_time",
        "op_avg_time",
        "total_time_proportion",
        "subgraph",
    ],  # fmt: skip
    "pynative_type": ["op_type", "execution_time", "execution_frequency", "percent"],
    "pynative_detail": ["op_name", "op_type", "avg_execution_time", "subgraph", "full_op_name"],
}


def check_given(train_id, profile) -> None:
    """Both the profiler directory and the train job are named (the original: 50540002)."""
    if not profile or not train_id:
        raise ParamValueError("No profiler_dir or train_id.")


def _check_string_lists(condition, name: str) -> None:
    if not isinstance(condition, dict):
        raise ProfilerFilterConditionError("The filter condition value must be dict.")
    for key, value in condition.items():
        if not isinstance(value, list):
            raise ProfilerFilterConditionError("The filter value must be list")
        if key not in FILTER_KEYS:
            raise ProfilerFilterConditionError(f"The filter key must in {list(FILTER_KEYS)}.")
        if not all(isinstance(item, str) for item in value):
            raise ProfilerFilterConditionError("The item in filter value must be str.")


def _checked_int(group: dict, name: str, low: int, high: int) -> None:
    if name not in group:
        return
    value = group[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProfilerGroupConditionError(f"The {name} must be int.")
    if not low <= value <= high:
        raise ProfilerGroupConditionError(f"The {name} must in [{low}, {high}].")


def validate_condition(condition) -> tuple[str, str]:
    """``(view, device id)`` of a valid search condition, else the original's error."""
    if not isinstance(condition, dict):
        raise ProfilerParamTypeError("Invalid search_condition type, it should be dict.")
    device_id = condition.get("device_id", "0")
    if not isinstance(device_id, str):
        raise ProfilerDeviceIdError("Invalid device_id type, it should be str.")
    view = condition.get("op_type")
    if not isinstance(view, str) or view not in VIEW_COLUMNS:
        raise ProfilerOpTypeError(f"The op_type must in {list(VIEW_COLUMNS)}")
    columns = VIEW_COLUMNS[view]
    if "group_condition" in condition:
        group = condition["group_condition"]
        if not isinstance(group, dict):
            raise ProfilerGroupConditionError("The group condition must be dict.")
        _checked_int(group, "limit", *GROUP_LIMIT)
        _checked_int(group, "offset", 0, GROUP_MAX_OFFSET)
    if "sort_condition" in condition:
        sort = condition["sort_condition"]
        if not isinstance(sort, dict):
            raise ProfilerSortConditionError("The sort condition must be dict.")
        if "name" in sort and (not isinstance(sort["name"], str) or sort["name"] not in columns):
            raise ProfilerSortConditionError(f"The sorted_name must be in {columns}")
        if sort.get("type") and sort["type"] not in ("ascending", "descending"):
            raise ProfilerSortConditionError("The sorted type must be ascending or descending.")
    if "filter_condition" in condition:
        filters = condition["filter_condition"]
        if not isinstance(filters, dict):
            raise ProfilerFilterConditionError("The filter condition must be dict.")
        for column, column_condition in filters.items():
            if column in columns or column in ("op_type", "op_name"):
                _check_string_lists(column_condition, column)
    try:
        device = str(int(device_id))
    except ValueError:
        raise ParamTypeError("device_id", "Integer") from None
    return view, device


def _matches(value, operator: str, wanted: list[str]) -> bool:
    if operator == "in":
        return value in wanted
    if operator == "not_in":
        return value not in wanted
    if operator == "partial_match_str_in":
        text = str(value).lower()
        return any(part.lower() in text for part in wanted)
    return False  # display_op_type / step narrow other views; on these rows nothing matches


def filtered(rows: list[list], columns: list[str], filters: dict) -> list[list]:
    """Rows meeting every operator of every filtered column."""
    tests = [
        (columns.index(column), operator, wanted)
        for column, condition in filters.items()
        if column in columns and isinstance(condition, dict)
        for operator, wanted in condition.items()
    ]
    return [row for row in rows if all(_matches(row[index], op, wanted) for index, op, wanted in tests)]


def sorted_rows(rows: list[list], columns: list[str], sort: dict) -> list[list]:
    """Rows by one column (nulls first when ascending); equal rows keep their file order."""
    name = sort.get("name")
    if not name:
        return rows
    if name not in columns:
        raise ProfilerColumnNotExistError(name)
    index = columns.index(name)
    descending = sort.get("type", "descending") == "descending"
    return sorted(rows, key=lambda row: (row[index] is not None, row[index]), reverse=descending)


def paged(rows: list[list], group: dict) -> list[list]:
    """One page: ``limit`` rows from page index ``offset`` (defaults 10 and 0)."""
    limit, offset = group.get("limit"), group.get("offset")
    if limit is None and offset is None:
        return rows
    limit = 10 if limit is None else limit
    offset = 0 if offset is None else offset
    return rows[limit * offset : limit * (offset + 1)]


def search_ops(provider: DataProvider, train_id: str | None, profile: str | None, condition) -> dict:
    """``{col_name, object, size}`` of one operator view of a job's profiler output."""
    check_given(train_id, profile)
    view, device = validate_condition(condition)
    output = provider.profiler_output(train_id, profile)
    columns = VIEW_COLUMNS[view]
    rows = provider.read_profiler_table(output, view, device)
    rows = filtered(rows, columns, condition.get("filter_condition") or {})
    size = len(rows)
    if condition.get("sort_condition"):
        rows = sorted_rows(rows, columns, condition["sort_condition"])
    if condition.get("group_condition"):
        rows = paged(rows, condition["group_condition"])
    return {"col_name": list(columns), "object": rows, "size": size}
