"""``/datavisual/tensors``: shapes, statistics, histograms or one step's slice of tensor tags."""

import orjson
from flask import Response
from marshmallow import Schema

from mindinsight.backend.api.per_tag import EXAMPLE_JOB, PerTagTopic, step_rows
from mindinsight.backend.api.shapes import ANY, INTEGER, NUMBER, STRING, array, named, nullable, number_row, obj
from mindinsight.backend.params import Text, TextList
from mindinsight.backend.view_marks import POOLED
from mindinsight.errors import (
    ParamMissError,
    ParamTypeError,
    ResponseTooLargeError,
    StepTensorDataNotInCacheError,
    TensorTooLargeError,
)
from mindinsight.services import tensors

TOPIC = PerTagTopic("tensors", tensors.KIND, example_tag="conv1_feature_map/tensor")

# Of the asked selection, then (overall_*) of the whole tensor; a bool tensor counts true/false.
TENSOR_STATISTICS = obj(
    {
        "max": NUMBER,
        "min": NUMBER,
        "avg": NUMBER,
        "count": INTEGER,
        "nan_count": INTEGER,
        "neg_inf_count": INTEGER,
        "pos_inf_count": INTEGER,
        "overall_count": INTEGER,
    },
    {
        **{f"overall_{name}": NUMBER for name in ("max", "min", "avg")},
        **{f"overall_{name}_count": INTEGER for name in ("nan", "neg_inf", "pos_inf", "true", "false")},
        # floats, as the original answers them
        **{f"overall_{name}_count": NUMBER for name in ("zero", "neg_zero", "pos_zero")},
    },
)
# detail=stats adds statistics (null for a tensor too large to read), detail=histogram buckets and
# statistics, detail=data the values of the slice (nested lists; NaN/Inf as "NAN", "INF", "-INF").
TENSOR_VALUE = named(
    "TensorValue",
    obj(
        {"dims": array(INTEGER), "data_type": STRING},
        {"statistics": nullable(TENSOR_STATISTICS), "histogram_buckets": array(number_row(3)), "data": ANY},
    ),
)


class TensorArgs(Schema):
    # ``step`` and ``dims`` are text: the original reads them only with detail=data (a
    # non-numeric step is fine otherwise), and ``detail`` is checked after the tag.
    train_id = TextList(required=True)
    tag = TextList(required=True)
    step = Text(load_default=None)
    dims = Text(load_default=None)
    detail = Text(load_default=None)


@TOPIC.tag_get(
    "/datavisual/tensors",
    # Statistics and histograms of a large tensor take a while the first time: not on the loop.
    serving=POOLED,
    args=TensorArgs(),
    errors=(
        StepTensorDataNotInCacheError,
        ResponseTooLargeError,
        TensorTooLargeError,
        ParamMissError,  # step or dims absent with detail=data
        ParamTypeError,  # a non-integer step with detail=data
    ),
    # several jobs and tags may be asked at once: the example asks for one of each
    example={"train_id": [EXAMPLE_JOB], "tag": [TOPIC.example_tag], "detail": "data", "step": "300", "dims": "[0,:,:]"},
    answer=obj(
        {"tensors": array(obj({"train_id": STRING, "tag": STRING, "values": step_rows({"value": TENSOR_VALUE})}))}
    ),
)
def tensor_values(provider, train_id, tag, step, dims, detail):
    """Per kept step ``{wall_time, step, value: {dims, data_type, ...}}`` of each (job, tag)."""
    answer = tensors.tensors(provider, train_id, tag, step=step, dims=dims, detail=detail)
    # orjson: a slice of 100,000 floats takes the json module ~0.2 s (float repr), orjson ~3 ms,
    # with the same shortest-repr digits; the trailing newline as the other JSON answers.
    return Response(orjson.dumps(answer) + b"\n", mimetype="application/json")
