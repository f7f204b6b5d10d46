"""``/datavisual/scalars/export`` (ours): every point of the chosen runs x scalar tags, streamed."""

from urllib.parse import quote

from flask import Response
from marshmallow import Schema

from mindinsight.backend.api.routing import Topic
from mindinsight.backend.api.shapes import INTEGER, NUMBER, STRING, array, enum, named, nullable, obj
from mindinsight.backend.params import Text, TextList
from mindinsight.backend.view_marks import POOLED
from mindinsight.conf.limits import MAX_EXPORT_TRAIN_JOBS
from mindinsight.errors import (
    DataLoadingError,
    ExportFormatUnavailableError,
    ParamValueError,
    QuerySyntaxError,
    QueryValueError,
    ScalarNotExistError,
    ScalarPointsReloadingError,
    ScalarPointsTooManyError,
    TrainJobNotExistError,
)
from mindinsight.services import scalar_export
from mindinsight.services.export_formats import FORMATS, MEDIA_TYPES

TOPIC = Topic("scalar_export")


class ExportArgs(Schema):
    train_id = TextList(max_distinct=MAX_EXPORT_TRAIN_JOBS, load_default=list)  # none: every job
    query = Text(metadata={"description": 'a query over runs (README, "Query language")'})
    tag = TextList(load_default=list)  # exact tag names; with none and no tag_pattern: every scalar tag
    tag_pattern = Text(metadata={"description": "an RE2 regular expression searched in the tag names"})
    format = Text(load_default="csv", metadata={"enum": list(FORMATS)})


# The JSON format's items; a NaN/Inf value is null and ``non_finite`` says which it was.
EXPORTED_POINT = named(
    "ExportedPoint",
    obj(
        {"run": STRING, "tag": STRING, "step": INTEGER, "wall_time": nullable(NUMBER), "value": nullable(NUMBER)},
        {"non_finite": enum("NaN", "Infinity", "-Infinity")},
    ),
)


# Pooled: the stream goes out through the front's thread pool, a chunk at a time, so its memory
# stays bounded whatever the export's size (the send queue between pool and loop is bounded).
@TOPIC.get(
    "/datavisual/scalars/export",
    serving=POOLED,
    args=ExportArgs(),
    errors=(
        TrainJobNotExistError,
        DataLoadingError,
        ScalarNotExistError,
        ScalarPointsReloadingError,
        ScalarPointsTooManyError,
        ExportFormatUnavailableError,
        QuerySyntaxError,
        QueryValueError,
    ),
    example={"train_id": ["./b_summary_ops"], "tag": ["loss_op/scalar"]},
    media_type=tuple(MEDIA_TYPES[name] for name in FORMATS),  # by `format`
    answer=array(EXPORTED_POINT),  # format=json
)
def export_scalars(provider, train_id, tag, format, query=None, tag_pattern=None):  # noqa: A002  (the parameter's name)
    """Every point of the chosen runs x scalar tags as CSV, JSON or Parquet, streamed."""
    if format not in FORMATS:
        raise ParamValueError(f"'format' must be one of {', '.join(FORMATS)}.")
    plan = scalar_export.plan_export(provider, format, train_id, query, tag, tag_pattern)
    name = f"scalars.{format}"
    return Response(
        scalar_export.stream(plan),
        mimetype=plan.encoder.media_type,
        headers={
            "Content-Disposition": f"attachment; filename=\"{name}\"; filename*=UTF-8''{quote(name)}",
            "X-Export-Points": str(plan.points),
        },
        direct_passthrough=True,
    )
