"""Lineage queries: filter/sort/page every job's lineage, tag and remark edits, dataset graphs.

Rules (the original's): rows start newest update first; a field condition matches when every
operator holds (``in``/``not_in`` test membership, the others compare; a missing value fails
``lt/gt/le/ge``, incomparable types fail the row); ``sorted_name`` sorts stably with nulls
first and values of different types ordered by their type names (``tag`` sorts by the user's
tag); ``offset`` is a page index of ``limit`` rows (limit 10 when only offset is given, every
row when neither is). ``customized`` describes the metric/user-defined columns of the page.
"""

import functools
import operator

from mindinsight.cache.provider import (
    NOT_ONE_LEVEL,
    DataProvider,
    LineageRecord,
    LineageSnapshot,
    TrainIdProblem,
    train_id_problem,
)
from mindinsight.conf.limits import LINEAGE_DEFAULT_PAGE_LIMIT, LINEAGE_MAX_REMARK_LENGTH, LINEAGE_MAX_TAG
from mindinsight.errors import LineageParamValueError, ParamValueError, TrainJobNotExistError
from mindinsight.services.lineage_conditions import METRIC_PREFIX, PAGE_KEYS, USER_DEFINED_PREFIX, validate_condition
from mindinsight.services.run_query import parse_query
from mindinsight.services.run_query_fields import RunFields, matching_runs

ADDED_INFO_KEYS = ("tag", "remark")
QUERY_KEY = "query"


class _Row:
    """A job's lineage as the query sees it: its values by condition key."""

    __slots__ = ("record", "mark", "added")

    def __init__(self, record: LineageRecord, mark: str, added: dict):
        self.record, self.mark, self.added = record, mark, added

    def value(self, key: str):
        model = self.record.dicts.model
        if key == "summary_dir":
            return self.record.train_id
        if key == "dataset_mark":
            return self.mark
        if key.startswith(METRIC_PREFIX):
            return model["metric"].get(key[len(METRIC_PREFIX) :])
        if key.startswith(USER_DEFINED_PREFIX):
            return model["user_defined"].get(key[len(USER_DEFINED_PREFIX) :])
        return model.get(key)


def _matches(expected_by_operator: dict, actual) -> bool:
    for name, expected in expected_by_operator.items():
        if actual is None and name in ("lt", "gt", "le", "ge"):
            return False
        try:
            if name == "in":
                ok = actual in expected
            elif name == "not_in":
                ok = actual not in expected
            else:
                ok = getattr(operator, name)(actual, expected)
        except TypeError:
            return False
        if not ok:
            return False
    return True


def _compare(first, second) -> int:
    """Nulls first; values that cannot be compared are ordered by their type names."""
    if first is None or second is None:
        return (first is not None) - (second is not None)
    try:
        return (first > second) - (first < second)
    except TypeError:
        first_type, second_type = type(first).__name__, type(second).__name__
        return (first_type > second_type) - (first_type < second_type)


def filtered_rows(snapshot: LineageSnapshot, condition: dict) -> list[_Row]:
    """Rows matching ``condition`` (already validated), sorted as it asks."""
    filters = [(key, value) for key, value in condition.items() if key not in PAGE_KEYS]
    rows = []
    for record in snapshot.records:
        row = _Row(record, snapshot.dataset_marks.get(record.train_id), snapshot.added_info.get(record.train_id, {}))
        if all(_matches(expected, row.value(key)) for key, expected in filters):
            rows.append(row)
    sorted_name = condition.get("sorted_name")
    if sorted_name is not None:
        if sorted_name == "tag":
            keys = [row.added.get("tag") for row in rows]
        else:
            keys = [row.value(sorted_name) for row in rows]
        order = sorted(
            range(len(rows)),
            key=functools.cmp_to_key(lambda a, b: _compare(keys[a], keys[b])),
            reverse=condition.get("sorted_type") == "descending",
        )
        rows = [rows[index] for index in order]
    return rows


def _page(rows: list, condition: dict) -> list:
    if "limit" not in condition and "offset" not in condition:
        return rows
    limit = condition.get("limit", LINEAGE_DEFAULT_PAGE_LIMIT)
    offset = condition.get("offset", 0)
    return rows[offset * limit : (offset + 1) * limit]


def _customized(rows) -> dict:
    found: dict[str, dict] = {}
    for row in rows:
        model = row.record.dicts.model
        for section, required in (("metric", True), ("user_defined", False)):
            for name, value in model[section].items():
                label = f"{section}/{name}"
                entry = found.setdefault(label, {"label": label, "required": required, "type": set()})
                entry["type"].add(type(value).__name__)
    for entry in found.values():
        types = entry["type"]
        entry["type"] = next(iter(types)) if len(types) == 1 else "float" if types <= {"int", "float"} else "mixed"
    return found


def _lineage_types(condition: dict) -> tuple:
    wanted = condition.get("lineage_type")
    if not wanted:
        return ("model", "dataset")
    return tuple(wanted["in"]) if wanted.get("in") is not None else (wanted.get("eq"),)


def _model_lineage(row: _Row) -> dict:
    model = row.record.dicts.model
    answer = {key: value for key, value in model.items() if key not in ("metric", "user_defined")}
    answer["dataset_mark"] = row.mark
    answer["metric"] = model["metric"]
    answer["user_defined"] = model["user_defined"]
    return answer


def _answer_object(row: _Row, lineage_types: tuple) -> dict:
    answer = {}
    if "model" in lineage_types:
        answer.update(summary_dir=row.record.train_id, model_lineage=_model_lineage(row))
    if "dataset" in lineage_types:
        answer.update(summary_dir=row.record.train_id, dataset_graph=row.record.dicts.dataset_graph)
    answer["added_info"] = row.added
    return answer


def _split_query(condition):
    """The condition without ``query`` (ours: a query over runs, see ``run_query``) and the
    query's text (None when absent or null)."""
    if not isinstance(condition, dict) or QUERY_KEY not in condition:
        return condition, None
    rest = {key: value for key, value in condition.items() if key != QUERY_KEY}
    return rest, condition[QUERY_KEY]


def _query_rows(provider: DataProvider, rows: list[_Row], tree) -> list[_Row]:
    models = [row.record.dicts.model for row in rows]
    fields = RunFields(provider, [row.record.train_id for row in rows], models, [row.mark for row in rows])
    return [row for row, keep in zip(rows, matching_runs(tree, fields)) if keep]


def search_lineages(provider: DataProvider, condition) -> dict:
    """``{"customized", "object", "count", "added_info_notice"}`` for a search condition (50542218 when invalid;
    a ``query`` beside the conditions narrows the rows further: 50540201/50540202 when it cannot be run)."""
    condition, query = _split_query(condition)
    condition = validate_condition(condition)
    tree = parse_query(query) if query is not None else None  # None: no condition
    rows = filtered_rows(provider.read_lineages(), condition)
    if tree is not None:
        rows = _query_rows(provider, rows, tree)
    page = _page(rows, condition)
    types = _lineage_types(condition)
    notice = provider.added_info_notice
    return {
        "customized": _customized(page),
        "object": [_answer_object(row, types) for row in page],
        "count": len(rows),
        # Ours: why tags and remarks may be missing or cannot be edited (null when all is well).
        "added_info_notice": notice.to_json() if notice else None,
    }


def validate_added_info(body) -> dict:
    """A ``{"tag", "remark"}`` edit, checked as the original does."""
    if not isinstance(body, dict):
        raise ParamValueError("The request body should be a dict.")
    if not set(body) <= set(ADDED_INFO_KEYS):
        raise LineageParamValueError(f"Keys of added_info must be in {list(ADDED_INFO_KEYS)}.")
    if "tag" in body:
        tag = body["tag"]
        if not isinstance(tag, int) or isinstance(tag, bool):
            raise LineageParamValueError("'tag' must be int.")
        if not 0 <= tag <= LINEAGE_MAX_TAG:
            raise LineageParamValueError(f"The tag should in [0, {LINEAGE_MAX_TAG}].")
    if "remark" in body:
        if not isinstance(body["remark"], str):
            raise LineageParamValueError("'remark' must be str.")
        if len(body["remark"]) > LINEAGE_MAX_REMARK_LENGTH:
            raise LineageParamValueError(f"The length of remark should in [0, {LINEAGE_MAX_REMARK_LENGTH}].")
    return body


def _check_train_id(provider: DataProvider, train_id: str) -> bool:
    """Whether ``train_id`` follows the train-id rule; a relative path of more than one level
    (or none) is refused as the original does, unless it names a run (TensorBoard runs nest)."""
    problem = train_id_problem(train_id)
    if problem is TrainIdProblem.NESTED and provider.job_brief(train_id) is not None:
        return True
    if problem in NOT_ONE_LEVEL:
        raise ParamValueError("Summary dir should be relative path starting with './'.")
    return problem is None


def update_added_info(provider: DataProvider, train_id: str, body) -> dict:
    """Store a job's tag and/or remark (kept across restarts)."""
    added = validate_added_info(body)
    if not _check_train_id(provider, train_id) or provider.job_brief(train_id) is None:
        raise TrainJobNotExistError()
    if provider.read_lineage(train_id) is None:
        raise ParamValueError(f"Cannot update the lineage for tran job {train_id}, because it does not exist.")
    provider.update_added_info(train_id, added)  # refused (5xx) when the store cannot be read or written
    return {"status": "success"}


def dataset_graph(provider: DataProvider, train_id: str) -> dict:
    """``{"dataset_graph", "summary_dir"}`` of a job, ``{}`` when it has none (or is unknown)."""
    record = provider.read_lineage(train_id) if _check_train_id(provider, train_id) else None
    if record is None or not record.dicts.dataset_graph:
        return {}
    return {"dataset_graph": record.dicts.dataset_graph, "summary_dir": train_id}
