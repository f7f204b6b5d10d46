"""``/datavisual/runs`` (ours): the runs table, one server-sorted, filtered page of runs with
their hyper-parameters and metric summaries as columns."""

from marshmallow import Schema

from mindinsight.backend.api.routing import Topic
from mindinsight.backend.api.shapes import ANY, BOOLEAN, INTEGER, STRING, array, map_of, named, obj
from mindinsight.backend.params import IntParam, Text, TextList
from mindinsight.backend.view_marks import REUSABLE_POOLED
from mindinsight.conf.limits import MAX_RUNS_TABLE_COLUMNS, MAX_TRAIN_JOBS_PAGE_LIMIT
from mindinsight.errors import ParamValueError, QuerySyntaxError, QueryValueError
from mindinsight.services import runs_table

TOPIC = Topic("runs")


class RunsArgs(Schema):
    offset = IntParam(minimum=0, range_message="'{name}' should be greater than or equal to 0.", load_default=0)
    limit = IntParam(minimum=1, maximum=MAX_TRAIN_JOBS_PAGE_LIMIT, sizes_answer=True, load_default=50)
    sort = Text(load_default="update_time", metadata={"description": "a column: name, update_time, lr, loss.last..."})
    order = Text(load_default="desc", metadata={"enum": ["asc", "desc"]})
    query = Text(metadata={"description": 'a query over runs, e.g. optimizer == "Adam" and loss.last < 0.2'})
    columns = TextList(max_distinct=MAX_RUNS_TABLE_COLUMNS)  # none: every hyper-parameter column


RUN_ROW = named(
    "RunsTableRow",
    obj({"train_id": STRING, "update_time": STRING, "cached": BOOLEAN, "values": map_of(ANY)}),
)


@TOPIC.get(
    "/datavisual/runs",
    serving=REUSABLE_POOLED,
    args=RunsArgs(),
    errors=(ParamValueError, QuerySyntaxError, QueryValueError),
    example={"sort": "loss.last", "order": "asc", "query": 'name ~ "summary"', "limit": 5},
    answer=obj(
        {
            "total": INTEGER,
            "runs": INTEGER,
            "columns": array(STRING),
            "scalar_tags": array(STRING),
            "rows": array(RUN_ROW),
        }
    ),
)
def list_runs(provider, offset, limit, sort, order, query=None, columns=None):
    """One page of runs (rows ``offset..offset+limit``), sorted by any column, missing values last."""
    if order not in ("asc", "desc"):
        raise ParamValueError("'order' should be asc or desc.")
    return runs_table.runs_table(provider, offset, limit, sort, order, query, columns)
