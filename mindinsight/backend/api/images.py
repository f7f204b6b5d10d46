"""``/datavisual/image/metadata`` and ``/datavisual/image/single-image`` (the stored bytes)."""

from flask import Response, request
from marshmallow import Schema

from mindinsight.backend.api.routing import Topic
from mindinsight.backend.api.scalars import TagArgs
from mindinsight.backend.params import IntParam, Text
from mindinsight.backend.view_marks import REUSABLE
from mindinsight.conf import limits
from mindinsight.errors import ImageNotExistError, TrainJobNotExistError
from mindinsight.services import images

TOPIC = Topic("images")
EXAMPLE_TAG = "input_image/image"


class SingleImageArgs(Schema):
    train_id = Text(required=True)
    tag = Text(required=True)
    step = IntParam(required=True)


@TOPIC.get(
    "/datavisual/image/metadata",
    serving=REUSABLE,
    args=TagArgs(),
    errors=(TrainJobNotExistError, ImageNotExistError),
    example={"train_id": "./b_summary_ops", "tag": EXAMPLE_TAG},
)
def image_metadata(manager, train_id, tag):
    """Every kept step ``{wall_time, step, width, height}`` of one image tag."""
    return images.image_metadata(manager, train_id, tag)


@TOPIC.get(
    "/datavisual/image/single-image",
    serving=REUSABLE,
    args=SingleImageArgs(),
    errors=(TrainJobNotExistError, ImageNotExistError),
    example={"train_id": "./b_summary_ops", "tag": EXAMPLE_TAG, "step": 300},
    media_type="image/*",
)
def single_image(manager, train_id, tag, step):
    """The encoded image of one kept step as written (``step=-1``: the latest), MIME type sniffed."""
    image = images.single_image(manager, train_id, tag, step)
    response = Response(image.data, mimetype=image.mimetype)
    response.headers["ETag"] = image.etag
    max_age = 0 if step == images.LATEST_STEP else limits.IMAGE_MAX_AGE_SECONDS
    response.headers["Cache-Control"] = f"private, max-age={max_age}"
    return response.make_conditional(request)
