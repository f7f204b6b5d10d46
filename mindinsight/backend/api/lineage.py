"""``/lineagemgr/lineages`` (search, tag/remark edits) and ``/datasets/dataset_graph``."""

from mindinsight.backend.api.args import TrainIdArgs
from mindinsight.backend.api.routing import Topic
from mindinsight.backend.api.shapes import (
    BOOLEAN,
    INTEGER,
    NUMBER,
    STRING,
    array,
    enum,
    map_of,
    named,
    nullable,
    number_row,
    obj,
    or_empty,
)
from mindinsight.backend.params import FreeFormBody, JsonValue
from mindinsight.backend.view_marks import POOLED
from mindinsight.errors import (
    LineageAddedInfoStoreError,
    LineageEditsDatabaseError,
    LineageParamValueError,
    LineageSearchConditionParamError,
    ParamValueError,
    QuerySyntaxError,
    QueryValueError,
    TrainJobNotExistError,
)
from mindinsight.services import lineage, optimizer_targets
from mindinsight.services.lineage_conditions import FIELDS, PAGE_KEYS

TOPIC = Topic("lineage")
EXAMPLE_JOB = "./a_lenet_collector"


# Declared keys describe the body in the OpenAPI document; ``metric/<name>`` and
# ``user_defined/<name>`` conditions are taken too.
_CONDITION = "conditions on the field: an object of operators eq, lt, gt, le, ge, in, not_in (strings: eq, in, not_in)"
_PAGE_KEY_DESCRIPTIONS = {
    "limit": "rows per page, 1..100 (10 when only offset is given; every row when neither is)",
    "offset": "page index, 0..100000",
    "sorted_name": "a field, metric/<name>, user_defined/<name> or tag",
    "sorted_type": "ascending (default) or descending; needs sorted_name",
    "lineage_type": 'which parts to answer: {"eq": "model"} or {"in": ["model", "dataset"]}',
}
LineageConditionBody = type(
    "LineageConditionBody",
    (FreeFormBody,),
    {
        **{name: JsonValue(metadata={"description": _CONDITION}) for name in FIELDS},
        **{name: JsonValue(metadata={"description": _PAGE_KEY_DESCRIPTIONS[name]}) for name in PAGE_KEYS},
        # Ours: a query over runs narrowing the rows further (README, "Query language").
        "query": JsonValue(metadata={"description": 'a query over runs, e.g. optimizer == "Adam" and lr < 0.01'}),
    },
)


class AddedInfoBody(FreeFormBody):
    tag = JsonValue(metadata={"description": "an icon index, integer 0..10"})
    remark = JsonValue(metadata={"description": "a note of at most 128 characters"})


# The dataset pipeline as MindSpore wrote it: nested ``{op_type, ..., children}`` of free form.
DATASET_GRAPH = obj(extra=True)
MODEL_LINEAGE = named(
    "ModelLineage",
    obj(
        {
            "loss_function": nullable(STRING),
            "train_dataset_path": nullable(STRING),
            "train_dataset_count": nullable(INTEGER),
            "test_dataset_path": nullable(STRING),
            "test_dataset_count": nullable(INTEGER),
            "network": nullable(STRING),
            "optimizer": nullable(STRING),
            "learning_rate": nullable(NUMBER),
            "epoch": nullable(INTEGER),
            "batch_size": nullable(INTEGER),
            "device_num": nullable(INTEGER),
            "loss": nullable(NUMBER),
            "model_size": nullable(INTEGER),
            "dataset_mark": nullable(STRING),
            "metric": obj(extra=True),  # the job's metrics and user-defined values as written
            "user_defined": obj(extra=True),
        }
    ),
)
ADDED_INFO = obj({}, {"tag": INTEGER, "remark": STRING})
LINEAGE_ROW = named(
    "LineageRow",
    # lineage_type picks the parts: model_lineage, dataset_graph or both (each with summary_dir).
    obj(
        {"added_info": ADDED_INFO},
        {"summary_dir": STRING, "model_lineage": MODEL_LINEAGE, "dataset_graph": DATASET_GRAPH},
    ),
)
STORE_NOTICE = obj(
    {
        "status": enum("backed_up", "unreadable", "unwritable", "unreachable"),
        "store": STRING,
        "reason": STRING,
        "backup": nullable(STRING),
    }
)
JOB_DATASET_GRAPH = named("JobDatasetGraph", obj({"dataset_graph": DATASET_GRAPH, "summary_dir": STRING}))
# metric/<name> and user_defined/<name> columns of the page: type one of int, float, str, mixed...
CUSTOMIZED = map_of(obj({"label": STRING, "required": BOOLEAN, "type": STRING}))
HYPER_PARAMETER_VALUES = array(nullable(NUMBER))


# The searches over every listed job, by a lineage search condition: a POST that only reads.
SEARCHES = TOPIC.group(
    serving=POOLED,
    changes_state=False,
    body=LineageConditionBody(),
    errors=(LineageSearchConditionParamError, ParamValueError, QuerySyntaxError, QueryValueError),
    example={"summary_dir": {"in": [EXAMPLE_JOB]}},
)
ONE_JOB = TOPIC.group(serving=POOLED, args=TrainIdArgs(), example={"train_id": EXAMPLE_JOB})


@SEARCHES.post(
    "/lineagemgr/lineages",
    example={"sorted_name": "metric/Accuracy", "limit": 10, "offset": 0},
    answer=obj(
        {
            "customized": CUSTOMIZED,
            "object": array(LINEAGE_ROW),
            "count": INTEGER,
            "added_info_notice": nullable(STORE_NOTICE),
        }
    ),
)
def search_lineages(provider, body):
    """Model and dataset lineage of every listed job, filtered, sorted and paged by a search condition."""
    return lineage.search_lineages(provider, body)


@ONE_JOB.put(
    "/lineagemgr/lineages",
    body=AddedInfoBody(),
    errors=(
        TrainJobNotExistError,
        LineageParamValueError,
        ParamValueError,
        LineageAddedInfoStoreError,
        LineageEditsDatabaseError,
    ),
    example={"tag": 1, "remark": "baseline"},
    answer=obj({"status": enum("success")}),
)
def update_lineage(provider, train_id, body):
    """Set a job's ``tag`` (0..10) and/or ``remark`` (up to 128 characters); answered once stored for good.

    Kept in the database of edits, shared by the servers on one ``--database-url``."""
    return lineage.update_added_info(provider, train_id, body)


@ONE_JOB.get("/datasets/dataset_graph", errors=(ParamValueError,), answer=or_empty(JOB_DATASET_GRAPH))
def dataset_graph(provider, train_id):
    """A job's dataset graph (``{}`` when it has none)."""
    return lineage.dataset_graph(provider, train_id)


@SEARCHES.post(
    "/optimizer/targets/search",
    answer=obj(
        {
            "metadata": obj(
                {
                    "train_ids": array(STRING),
                    "possible_hyper_parameters": array(obj({"name": STRING, "data": HYPER_PARAMETER_VALUES})),
                    # user-defined values left out as not all numbers
                    "unrecognized_params": array(obj({"name": STRING, "unselected": BOOLEAN, "reason_code": INTEGER})),
                }
            ),
            "targets": array(
                obj(
                    {
                        "name": STRING,
                        "buckets": array(number_row(3)),
                        "hyper_parameters": array(
                            obj({"name": STRING, "importance": NUMBER}, {"reason_code": INTEGER})
                        ),
                        "data": HYPER_PARAMETER_VALUES,
                    }
                )
            ),
        }
    ),
)
def search_optimizer_targets(provider, body):
    """How much each hyper-parameter matters (|Pearson r|) for each metric and the loss, over the selected jobs."""
    return optimizer_targets.search_targets(provider, body)
