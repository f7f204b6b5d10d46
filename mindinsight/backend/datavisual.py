"""Blueprint ``/v1/mindinsight/datavisual``: validate -> call a service -> JSON."""
from flask import Blueprint, Response, jsonify, request
from marshmallow import Schema

from mindinsight.backend.params import BoolText, IntParam, Text, TextList, load_args
from mindinsight.backend.view_marks import in_memory, reusable_answer
from mindinsight.cache.data_manager import DataManager
from mindinsight.conf.limits import MAX_TRAIN_JOBS_PAGE_LIMIT
from mindinsight.errors import ParamMissError, ParamTypeError, ParamValueError
from mindinsight.services.datavisual import histograms, scalars, train_jobs


class TrainJobsArgs(Schema):
    offset = IntParam(minimum=0, range_message="'{name}' should be greater than or equal to 0.", load_default=0)
    limit = IntParam(minimum=1, maximum=MAX_TRAIN_JOBS_PAGE_LIMIT, load_default=10)
    train_id = Text()


class PluginsArgs(Schema):
    train_id = Text(required=True)
    manual_update = BoolText(load_default=False)


class SingleJobArgs(Schema):
    train_id = Text(required=True)
    plugin_name = Text(required=True)


class TagArgs(Schema):
    train_id = Text(required=True)
    tag = Text(required=True)


class CompareArgs(Schema):
    train_id = TextList(load_default=list)
    tag = TextList(load_default=list)


# Schemas hold no per-request state: build each once (construction cost more than loading).
_TRAIN_JOBS_ARGS = TrainJobsArgs()
_PLUGINS_ARGS = PluginsArgs()
_SINGLE_JOB_ARGS = SingleJobArgs()
_TAG_ARGS = TagArgs()
_COMPARE_ARGS = CompareArgs()


def create_blueprint(manager: DataManager) -> Blueprint:
    blueprint = Blueprint("datavisual", __name__)

    @blueprint.get("/train-jobs")
    @reusable_answer
    def list_train_jobs():
        args = load_args(_TRAIN_JOBS_ARGS, request.args)
        return jsonify(train_jobs.list_train_jobs(manager, args["offset"], args["limit"], args.get("train_id")))

    @blueprint.get("/plugins")
    @in_memory   # not reusable: manual_update=true marks the job as used
    def plugins():
        args = load_args(_PLUGINS_ARGS, request.args)
        return jsonify(train_jobs.plugins(manager, args["train_id"], args["manual_update"]))

    @blueprint.get("/single-job")
    @reusable_answer
    def single_job():
        args = load_args(_SINGLE_JOB_ARGS, request.args)
        return jsonify(train_jobs.single_job(manager, args["train_id"], args["plugin_name"]))

    @blueprint.post("/train-job-caches")
    def train_job_caches():
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or "train_ids" not in body:
            raise ParamMissError("train_ids")
        train_ids = body["train_ids"]
        if not isinstance(train_ids, list) or not all(isinstance(item, str) for item in train_ids):
            raise ParamTypeError("train_ids", "<class 'list'>")
        if any("\x00" in item for item in train_ids):
            raise ParamValueError("'train_ids' contains a null byte.")
        return jsonify(train_jobs.cache_train_jobs(manager, train_ids))

    @blueprint.get("/scalar/metadata")
    @reusable_answer
    def scalar_metadata():
        args = load_args(_TAG_ARGS, request.args)
        # Served from a per-tag cache of the serialized answer: the same bytes jsonify makes.
        return Response(scalars.scalar_metadata_json(manager, args["train_id"], args["tag"]),
                        mimetype="application/json")

    @blueprint.get("/scalars")
    @reusable_answer
    def scalars_comparison():
        args = load_args(_COMPARE_ARGS, request.args, repeated=("train_id", "tag"))
        return jsonify(scalars.scalars_comparison(manager, args["train_id"], args["tag"]))

    @blueprint.get("/histograms")
    @reusable_answer
    def histogram_steps():
        args = load_args(_TAG_ARGS, request.args)
        return jsonify(histograms.histograms(manager, args["train_id"], args["tag"]))

    return blueprint
