"""``/lineagemgr/lineages`` (search, tag/remark edits) and ``/datasets/dataset_graph``."""

from marshmallow import Schema

from mindinsight.backend.api.routing import Topic
from mindinsight.backend.context import lineage_store
from mindinsight.backend.params import FreeFormBody, JsonValue, Text
from mindinsight.backend.view_marks import POOLED
from mindinsight.errors import (
    LineageAddedInfoStoreError,
    LineageParamValueError,
    LineageSearchConditionParamError,
    ParamValueError,
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
    },
)


class AddedInfoBody(FreeFormBody):
    tag = JsonValue(metadata={"description": "an icon index, integer 0..10"})
    remark = JsonValue(metadata={"description": "a note of at most 128 characters"})


class TrainIdArgs(Schema):
    train_id = Text(required=True)


@TOPIC.post(
    "/lineagemgr/lineages",
    serving=POOLED,
    changes_state=False,  # a search
    body=LineageConditionBody(),
    errors=(LineageSearchConditionParamError, ParamValueError),
    example={"summary_dir": {"in": [EXAMPLE_JOB]}, "sorted_name": "metric/Accuracy", "limit": 10, "offset": 0},
)
def search_lineages(manager, body):
    """Model and dataset lineage of every listed job, filtered, sorted and paged by a search condition."""
    return lineage.search_lineages(lineage_store(), body)


@TOPIC.put(
    "/lineagemgr/lineages",
    serving=POOLED,
    args=TrainIdArgs(),
    body=AddedInfoBody(),
    errors=(TrainJobNotExistError, LineageParamValueError, ParamValueError, LineageAddedInfoStoreError),
    example={"train_id": EXAMPLE_JOB, "tag": 1, "remark": "baseline"},
)
def update_lineage(manager, train_id, body):
    """Set a job's ``tag`` (0..10) and/or ``remark`` (up to 128 characters); kept across restarts."""
    return lineage.update_added_info(lineage_store(), train_id, body)


@TOPIC.get(
    "/datasets/dataset_graph",
    serving=POOLED,
    args=TrainIdArgs(),
    errors=(ParamValueError,),
    example={"train_id": EXAMPLE_JOB},
)
def dataset_graph(manager, train_id):
    """A job's dataset graph (``{}`` when it has none)."""
    return lineage.dataset_graph(lineage_store(), train_id)


@TOPIC.post(
    "/optimizer/targets/search",
    serving=POOLED,
    changes_state=False,
    body=LineageConditionBody(),
    errors=(LineageSearchConditionParamError, ParamValueError),
    example={"summary_dir": {"in": [EXAMPLE_JOB]}},
)
def search_optimizer_targets(manager, body):
    """How much each hyper-parameter matters (|Pearson r|) for each metric and the loss, over the selected jobs."""
    return optimizer_targets.search_targets(lineage_store(), body)
