"""The runs table: one page of runs with their hyper-parameters and metric summaries as columns,
filtered by a query (``run_query``) and sorted on the server by any column.

Columns are named as the query names fields, so a column a user sorts on is the field a query
compares: ``name`` (the train id), ``update_time``, the model-lineage fields (``learning_rate``,
``optimizer``, ...), ``metric.<name>`` and ``user_defined.<name>`` (TensorBoard hparams are
lineage rows too: their hyper-parameters are user-defined values, their metrics metrics), and
``<tag>.last`` / ``.min`` / ``.max`` of a scalar tag. A scalar summary is known for the jobs in
the detail cache only (reading every job's events to sort a table would cost seconds per
thousand runs): other runs show null there, and a row says whether its job is cached.

Sorting puts missing values last in either order; numbers sort before strings, then booleans.
"""

import math

from mindinsight.cache.provider import DataProvider, SummaryDirInfo
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import ParamValueError
from mindinsight.services.run_query import SUMMARIES, Field, Position, parse_query
from mindinsight.services.run_query_fields import LINEAGE_FIELDS, RunFields, matching_runs
from mindinsight.services.train_jobs import format_time

RUN_COLUMNS = ("name", "update_time")
SECTIONS = ("metric", "user_defined")
_NOWHERE = Position(1, 1, 0)
# Sort ranks of the value types (missing values go after all of them).
_RANK = {int: 0, float: 0, str: 1, bool: 2}


def _lineage_columns(models) -> list[str]:
    """The hyper-parameter columns some run has a value of, in a stable order: the lineage
    fields, then metrics and user-defined values by name."""
    lineage, sections = set(), {section: set() for section in SECTIONS}
    for model in models:
        if model is None:
            continue
        lineage.update(name for name in LINEAGE_FIELDS if model.get(name) is not None)
        for section in SECTIONS:
            sections[section].update(model.get(section) or {})
    ordered = sorted(lineage)
    for section in SECTIONS:
        ordered += [f"{section}.{key}" for key in sorted(sections[section])]
    return ordered


def _summary_field(column: str) -> Field | None:
    tag, dot, summary = column.rpartition(".")
    if not dot or not tag or summary not in SUMMARIES:
        return None
    return Field(tuple(tag.split(".")), summary, _NOWHERE)


def _scalar_tags(provider: DataProvider, infos: list[SummaryDirInfo]) -> list[str]:
    """The scalar tags of the runs in the detail cache (the only ones with summaries)."""
    tags = set()
    for info in infos:
        data = provider.job_data(info.train_id)
        if data is not None:
            tags.update(data.tags(PluginName.SCALAR))
    return sorted(tags)


class _Table:
    """Runs (``infos``) with their lineage models and dataset marks; ``values(column)`` reads
    one value per run. ``known``: the hyper-parameter columns of the whole listing."""

    def __init__(self, provider: DataProvider, infos: list[SummaryDirInfo], models: list, marks: list, known: set):
        self.infos, self.models, self.marks, self.known = infos, models, marks, known
        self.fields = RunFields(provider, [info.train_id for info in infos], models, marks)

    def rows(self, provider: DataProvider, indices: list[int]) -> "_Table":
        """The table of the runs at ``indices``, in that order."""
        pick = lambda items: [items[index] for index in indices]  # noqa: E731
        return _Table(provider, pick(self.infos), pick(self.models), pick(self.marks), self.known)

    def check(self, column: str) -> None:
        if column in RUN_COLUMNS or column in self.known or _summary_field(column) is not None:
            return
        raise ParamValueError(
            f"Unknown column {column!r}: name, update_time, a hyper-parameter column of the answer's "
            "'columns' or a scalar tag's <tag>.last, <tag>.min or <tag>.max."
        )

    def values(self, column: str) -> list:
        if column == "name":
            return [info.train_id for info in self.infos]
        if column == "update_time":
            return [info.update_time for info in self.infos]
        field = None if column in self.known else _summary_field(column)
        if field is None:
            head, _, rest = column.partition(".")
            path = (head, rest) if head in SECTIONS and rest else (column,)
            field = Field(path, None, _NOWHERE)
        values = self.fields.read(field)
        return [None if isinstance(value, float) and math.isnan(value) else value for value in values]


def _listing(provider: DataProvider) -> _Table:
    lineage = provider.read_lineages()
    records = {record.train_id: record for record in lineage.records}
    infos = provider.list_jobs()
    models = [records[info.train_id].dicts.model if info.train_id in records else None for info in infos]
    marks = [lineage.dataset_marks.get(info.train_id) for info in infos]
    return _Table(provider, infos, models, marks, set())


def _sorted_order(values: list, descending: bool) -> list[int]:
    """Row indices ordered by ``values``, missing ones (None, NaN, dicts and lists) last."""
    present = [index for index, value in enumerate(values) if type(value) in _RANK]
    missing = [index for index, value in enumerate(values) if type(value) not in _RANK]
    present.sort(key=lambda index: (_RANK[type(values[index])], values[index]), reverse=descending)
    if descending:  # keep the type groups in their ascending order, each sorted descending
        present.sort(key=lambda index: _RANK[type(values[index])])
    return present + missing


def runs_table(
    provider: DataProvider,
    offset: int,
    limit: int,
    sort: str = "update_time",
    order: str = "desc",
    query: str | None = None,
    columns: list[str] | None = None,
) -> dict:
    """One page (rows ``offset .. offset + limit``) of the runs ``query`` matches, sorted by
    ``sort``, with the values of ``columns`` (default: every hyper-parameter column)."""
    tree = parse_query(query) if query is not None else None
    table = _listing(provider)
    lineage_columns = _lineage_columns(table.models)
    table.known = set(lineage_columns)
    chosen = lineage_columns if columns is None else list(dict.fromkeys(columns))
    for column in (sort, *chosen):
        table.check(column)
    rows = list(range(len(table.infos)))
    if tree is not None:
        mask = matching_runs(tree, table.fields)
        rows = [index for index in rows if mask[index]]
    if not (sort == "update_time" and order == "desc"):  # else the listing's own order
        values = table.values(sort)
        picked = [values[index] for index in rows]
        rows = [rows[index] for index in _sorted_order(picked, order == "desc")]
    page = table.rows(provider, rows[offset : offset + limit])
    column_values = {column: page.values(column) for column in chosen}
    return {
        "total": len(rows),
        "runs": len(table.infos),
        "columns": lineage_columns,
        "scalar_tags": _scalar_tags(provider, table.infos),
        "rows": [
            {
                "train_id": info.train_id,
                "update_time": format_time(info.update_time),
                "cached": provider.job_data(info.train_id) is not None,
                "values": {column: column_values[column][place] for column in chosen},
            }
            for place, info in enumerate(page.infos)
        ],
    }
