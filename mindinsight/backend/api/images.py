"""``/datavisual/image/metadata`` and ``/datavisual/image/single-image`` (the stored bytes)."""

from flask import Response, request

from mindinsight.backend.api.per_tag import PerTagTopic, TagArgs, step_rows
from mindinsight.backend.api.shapes import INTEGER, obj
from mindinsight.backend.params import IntParam
from mindinsight.conf import limits
from mindinsight.services import images

TOPIC = PerTagTopic("images", images.KIND, example_tag="input_image/image")


class SingleImageArgs(TagArgs):
    step = IntParam(required=True)


@TOPIC.tag_get(
    "/datavisual/image/metadata", answer=obj({"metadatas": step_rows({"width": INTEGER, "height": INTEGER})})
)
def image_metadata(provider, train_id, tag):
    """Every kept step ``{wall_time, step, width, height}`` of one image tag."""
    return images.image_metadata(provider, train_id, tag)


@TOPIC.tag_get("/datavisual/image/single-image", args=SingleImageArgs(), example={"step": 300}, media_type="image/*")
def single_image(provider, train_id, tag, step):
    """The encoded image of one kept step as written (``step=-1``: the latest), MIME type sniffed."""
    image = images.single_image(provider, train_id, tag, step)
    response = Response(image.data, mimetype=image.mimetype)
    response.headers["ETag"] = image.etag
    max_age = 0 if step == images.LATEST_STEP else limits.IMAGE_MAX_AGE_SECONDS
    response.headers["Cache-Control"] = f"private, max-age={max_age}"
    return response.make_conditional(request)
