"""``/datavisual/scalar/metadata`` and the multi-job ``/datavisual/scalars``."""

from mindinsight.backend.api.args import ComparedJobsArgs, TagArgs
from mindinsight.backend.api.routing import Topic
from mindinsight.backend.api.shapes import INTEGER, NUMBER, STRING, array, enum, map_of, named, nullable, obj, one_of
from mindinsight.backend.params import BoolText, IntParam, TextList
from mindinsight.backend.view_marks import REUSABLE, REUSABLE_POOLED
from mindinsight.conf.limits import (
    MAX_COMPARED_SCALAR_JOBS,
    MAX_COMPARED_SCALAR_SERIES,
    MAX_COMPARED_SCALAR_TAGS,
    MAX_SCALAR_BUCKETS,
)
from mindinsight.errors import (
    ParamTypeError,
    ParamValueError,
    ScalarNotExistError,
    ScalarPointsReloadingError,
    ScalarPointsTooManyError,
    ScalarRangeError,
    TrainJobNotExistError,
)
from mindinsight.services import scalar_buckets, scalars

TOPIC = Topic("scalars")


# A NaN/Inf value is null, and ``non_finite`` says which it was.
SCALAR_POINT = named(
    "ScalarPoint",
    obj(
        {"wall_time": NUMBER, "step": INTEGER, "value": nullable(NUMBER)},
        {"non_finite": enum("NaN", "Infinity", "-Infinity")},
    ),
)


class CompareArgs(ComparedJobsArgs):
    train_id = TextList(max_distinct=MAX_COMPARED_SCALAR_JOBS, load_default=list)
    tag = TextList(max_distinct=MAX_COMPARED_SCALAR_TAGS, load_default=list)
    compact = BoolText(load_default=False)  # ours: columns instead of one object per point


# The original's series: one object per point.
POINT_SERIES = named("ScalarSeries", obj({"train_id": STRING, "tag": STRING, "values": array(SCALAR_POINT)}))
# ``compact=true``: the same points as columns; a NaN/Inf value is null and ``non_finite`` maps
# its index (as text) to which it was.
COLUMN_SERIES = named(
    "ScalarColumns",
    obj(
        {
            "train_id": STRING,
            "tag": STRING,
            "steps": array(INTEGER),
            "values": array(nullable(NUMBER)),
            "wall_times": array(NUMBER),
        },
        {"non_finite": map_of(enum("NaN", "Infinity", "-Infinity"))},
    ),
)


@TOPIC.get(
    "/datavisual/scalar/metadata",
    serving=REUSABLE,
    args=TagArgs(),
    errors=(TrainJobNotExistError, ScalarNotExistError, ParamTypeError),
    example={"train_id": "./b_summary_ops", "tag": "loss_op/scalar"},
    answer=obj({"metadatas": array(SCALAR_POINT)}),
)
def scalar_metadata(provider, train_id, tag):
    """Every kept point ``{wall_time, step, value}`` of one scalar tag (NaN/Inf as null)."""
    return scalars.scalar_metadata(provider, train_id, tag)


@TOPIC.get(
    "/datavisual/scalars",
    serving=REUSABLE_POOLED,
    args=CompareArgs(),
    errors=(ParamValueError,),
    example={"train_id": ["./b_summary_ops"], "tag": ["loss_op/scalar"]},
    answer=obj({"scalars": array(one_of(POINT_SERIES, COLUMN_SERIES))}),
)
def scalars_comparison(provider, train_id, tag, compact):
    """Series of every (job, tag) pair that exists; unknown jobs or tags are left out.
    ``compact=true`` gives each series as columns (steps, values, wall times)."""
    if len(train_id) * len(tag) > MAX_COMPARED_SCALAR_SERIES:
        raise ParamValueError(
            f"'train_id' x 'tag' may make at most {MAX_COMPARED_SCALAR_SERIES} series, "
            f"got {len(train_id)} x {len(tag)}."
        )
    return scalars.scalars_comparison(provider, train_id, tag, compact=compact)


_INT64 = {"minimum": -(2**63), "maximum": 2**63 - 1}


class BucketArgs(TagArgs):
    start = IntParam(**_INT64, load_default=None)  # first step (included); none: the tag's first
    end = IntParam(**_INT64, load_default=None)  # last step (included); none: the tag's last
    width = IntParam(minimum=1, maximum=MAX_SCALAR_BUCKETS, required=True, sizes_answer=True)


# A bucket's first/last point; min/max are null when it holds no finite value.
BUCKET_POINT = named(
    "BucketPoint",
    obj({"step": INTEGER, "value": nullable(NUMBER)}, {"non_finite": enum("NaN", "Infinity", "-Infinity")}),
)
EXTREME = nullable(obj({"step": INTEGER, "value": NUMBER}))
BUCKET = named(
    "ScalarBucket",
    obj(
        {
            "count": INTEGER,
            "first": BUCKET_POINT,
            "last": BUCKET_POINT,
            "min": EXTREME,
            "max": EXTREME,
            "nan": INTEGER,
            "inf": INTEGER,
            "neg_inf": INTEGER,
        }
    ),
)


@TOPIC.get(
    "/datavisual/scalar/buckets",
    serving=REUSABLE_POOLED,
    args=BucketArgs(),
    errors=(
        TrainJobNotExistError,
        ScalarNotExistError,
        ParamTypeError,
        ParamValueError,
        ScalarRangeError,
        ScalarPointsReloadingError,
        ScalarPointsTooManyError,
    ),
    example={"train_id": "./b_summary_ops", "tag": "loss_op/scalar", "width": "100"},
    answer=obj({"start": INTEGER, "end": INTEGER, "width": INTEGER, "count": INTEGER, "buckets": array(BUCKET)}),
)
def scalar_buckets_view(provider, train_id, tag, width, start=None, end=None):
    """Every point of one scalar tag in steps ``start..end``, one bucket per pixel column."""
    return scalar_buckets.scalar_buckets(provider, train_id, tag, start, end, width)
