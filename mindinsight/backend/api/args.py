"""Query schemas that routes of several topics take."""

from marshmallow import Schema

from mindinsight.backend.params import Text, TextList
from mindinsight.conf.limits import MAX_COMPARED_TRAIN_JOBS


class TrainIdArgs(Schema):
    """One job: ``train_id``."""

    train_id = Text(required=True)


class TagArgs(TrainIdArgs):
    """One tag of one job: ``train_id`` and ``tag``."""

    tag = Text(required=True)


class ComparedJobsArgs(Schema):
    """Jobs compared: ``train_id`` repeated (none: an empty comparison)."""

    # A repeated value counts once; more distinct ones than a comparison shows are refused.
    train_id = TextList(max_distinct=MAX_COMPARED_TRAIN_JOBS, load_default=list)
