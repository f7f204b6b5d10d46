"""``/datavisual/tensors``: shapes, statistics, histograms or one step's slice of tensor tags."""

import orjson
from flask import Response
from marshmallow import Schema

from mindinsight.backend.api.routing import Topic
from mindinsight.backend.params import Text, TextList
from mindinsight.backend.view_marks import POOLED
from mindinsight.errors import (
    ParamMissError,
    ParamTypeError,
    ResponseTooLargeError,
    StepTensorDataNotInCacheError,
    TensorNotExistError,
    TensorTooLargeError,
    TrainJobNotExistError,
)
from mindinsight.services import tensors

TOPIC = Topic("tensors")


class TensorArgs(Schema):
    # ``step`` and ``dims`` are text: the original reads them only with detail=data (a
    # non-numeric step is fine otherwise), and ``detail`` is checked after the tag.
    train_id = TextList(required=True)
    tag = TextList(required=True)
    step = Text(load_default=None)
    dims = Text(load_default=None)
    detail = Text(load_default=None)


@TOPIC.get(
    "/datavisual/tensors",
    # Statistics and histograms of a large tensor take a while the first time: not on the loop.
    serving=POOLED,
    args=TensorArgs(),
    errors=(
        TrainJobNotExistError,
        TensorNotExistError,
        StepTensorDataNotInCacheError,
        ResponseTooLargeError,
        TensorTooLargeError,
        ParamMissError,  # step or dims absent with detail=data
        ParamTypeError,  # a non-integer step with detail=data
    ),
    example={
        "train_id": ["./b_summary_ops"],
        "tag": ["conv1_feature_map/tensor"],
        "detail": "data",
        "step": "300",
        "dims": "[0,:,:]",
    },
)
def tensor_values(manager, train_id, tag, step, dims, detail):
    """Per kept step ``{wall_time, step, value: {dims, data_type, ...}}`` of each (job, tag)."""
    answer = tensors.tensors(manager, train_id, tag, step=step, dims=dims, detail=detail)
    # orjson: a slice of 100,000 floats takes the json module ~0.2 s (float repr), orjson ~3 ms,
    # with the same shortest-repr digits; the trailing newline as the other JSON answers.
    return Response(orjson.dumps(answer) + b"\n", mimetype="application/json")
