"""Lineage files (``*_lineage``): the one reader and parser of them.

``parse_lineage_files`` reads a job's lineage files in order into ``LineageData`` (the records'
messages: later records win, user-defined info is merged); ``lineage_dicts`` turns that into the
plain dicts the lineage API answers with.

Field facts (the original's mapping): the model lineage holds ``loss_function``, ``optimizer``,
``learning_rate``, ``epoch``, ``batch_size``, ``device_num`` from the train lineage's hyper
parameters, ``train_dataset_path``/``_count`` from its train dataset (``train_dataset_size``),
``network`` and ``loss`` from its algorithm, ``model_size`` from its model (an int64 the JSON
conversion prints as a string, turned back into an int); ``test_dataset_path``/``_count`` from
the evaluation lineage's valid dataset, ``metric`` from the evaluation lineage's JSON string. A
proto field left at its default is absent (``None``), as protobuf's JSON conversion drops it.
"""

import json
import logging
from dataclasses import dataclass

from google.protobuf.json_format import MessageToDict
from google.protobuf.message import DecodeError

from mindinsight.format.proto import mindinsight_lineage_pb2 as lineage_pb
from mindinsight.format.records import RecordReader
from mindinsight.ingest.job_data import LineageData

logger = logging.getLogger(__name__)


def parse_lineage_files(paths, root: str | None = None) -> LineageData:
    """Read every lineage file in order; later records win, user-defined info is merged.
    ``root``: the real base dir the files must lie in (``RecordReader``). A file that cannot be
    read is named in ``unreadable`` with the reason; the caller logs it and tries it again later."""
    data = LineageData()
    for path in paths:
        reader = RecordReader(path, root=root)
        try:
            while True:
                batch = reader.read()
                for payload in batch.payloads:
                    _apply(data, payload)
                if batch.end_of_data:
                    break
        except OSError as error:
            data.unreadable[path] = error.strerror or str(error)
    return data


def _apply(data: LineageData, payload: bytes) -> None:
    try:
        event = lineage_pb.LineageEvent.FromString(payload)
    except DecodeError:
        logger.warning("undecodable lineage record skipped")
        return
    kind = event.WhichOneof("what")
    if kind == "train_lineage":
        data.train_lineage = event.train_lineage
    elif kind == "evaluation_lineage":
        data.evaluation_lineage = event.evaluation_lineage
    elif kind == "dataset_graph":
        data.dataset_graph = event.dataset_graph
    elif kind == "user_defined_info":
        _merge_user_defined(data.user_defined, event.user_defined_info)


def _merge_user_defined(target: dict, info) -> None:
    """Flatten a UserDefinedInfo (MindSpore nests one item per ``user_info``) into ``target``."""
    for mapping in (info.map_int32, info.map_str, info.map_double):
        target.update(dict(mapping))
    for nested in info.user_info:
        _merge_user_defined(target, nested)


# answer key -> (section of the train/evaluation lineage, field in it)
MODEL_FIELDS = {
    "loss_function": ("hyper_parameters", "loss_function"),
    "train_dataset_path": ("train_dataset", "train_dataset_path"),
    "train_dataset_count": ("train_dataset", "train_dataset_size"),
    "test_dataset_path": ("valid_dataset", "valid_dataset_path"),
    "test_dataset_count": ("valid_dataset", "valid_dataset_size"),
    "network": ("algorithm", "network"),
    "optimizer": ("hyper_parameters", "optimizer"),
    "learning_rate": ("hyper_parameters", "learning_rate"),
    "epoch": ("hyper_parameters", "epoch"),
    "batch_size": ("hyper_parameters", "batch_size"),
    "device_num": ("hyper_parameters", "device_num"),
    "loss": ("algorithm", "loss"),
    "model_size": ("model", "size"),
}


@dataclass(frozen=True)
class LineageDicts:
    """One job's lineage: ``model`` (MODEL_FIELDS keys + ``metric`` + ``user_defined``) and
    its dataset graph dict (``{}`` when it has none)."""

    model: dict
    dataset_graph: dict
    landscape: dict  # what a loss landscape's answer adds to its metadata (``landscape_metadata``)


def lineage_dicts(data: LineageData) -> LineageDicts | None:
    """The job's lineage dicts, or None when it has no train, evaluation or dataset-graph record."""
    if data.train_lineage is None and data.evaluation_lineage is None and data.dataset_graph is None:
        return None
    sections = {}
    for message in (data.train_lineage, data.evaluation_lineage):
        if message is not None:
            sections.update(MessageToDict(message, preserving_proto_field_name=True))
    model = {key: sections.get(section, {}).get(name) for key, (section, name) in MODEL_FIELDS.items()}
    if model["model_size"] is not None:
        model["model_size"] = int(model["model_size"])
    model["metric"] = _metric(sections.get("metric"))
    model["user_defined"] = dict(data.user_defined)
    graph = dataset_graph_dict(data.dataset_graph) if data.dataset_graph is not None else {}
    return LineageDicts(model, graph, landscape_metadata(data))


def _exponent(value) -> str | None:
    return None if value is None else format(value, "6e")


def landscape_metadata(data: LineageData | None) -> dict:
    """Network, learning rate, optimizer, metric and loss of a job's lineage (null / {} if absent),
    as a loss landscape's answer shows them. The float fields are printed from the message's own
    value (``MessageToDict`` would round a float32 to its shortest decimal first)."""
    train = data.train_lineage if data is not None else None
    evaluation = data.evaluation_lineage if data is not None else None
    return {
        "network": _train_field(train, "network"),
        "learning_rate": _exponent(_train_field(train, "learning_rate")),
        "optimizer": _train_field(train, "optimizer"),
        "metric": _metric(evaluation.metric if evaluation is not None else None),
        "loss": _exponent(_train_field(train, "loss")),
    }


def _train_field(train, key: str):
    """The value of the ``MODEL_FIELDS`` entry ``key`` in a TrainLineage message, or None where unset."""
    if train is None:
        return None
    section, name = MODEL_FIELDS[key]
    part = getattr(train, section)
    return getattr(part, name) if part.HasField(name) else None


def _metric(text) -> dict:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def dataset_graph_dict(graph) -> dict:
    """A DatasetGraph message as nested dicts: each node's parameters flattened into it,
    ``operations`` (a list) and ``sampler`` when present, ``children`` always (a list)."""
    node = _node_fields(graph)
    node["children"] = [dataset_graph_dict(child) for child in graph.children]
    return node


def _node_fields(graph) -> dict:
    fields = _parameters(graph.parameter)
    if len(graph.operations):
        fields["operations"] = [_operation(op) for op in graph.operations]
    sampler = _operation(graph.sampler)
    if sampler:
        fields["sampler"] = sampler
    return fields


def _operation(operation) -> dict:
    # The original shares one list between ``size`` and ``weights`` (so ``weights`` repeats
    # ``size``); each here holds only its own values.
    result = _parameters(operation.operationParam)
    for key in ("size", "weights"):
        values = list(getattr(operation, key))
        if values:
            result[key] = values
    return result


def _parameters(parameter) -> dict:
    """Scalar maps (the string ``'None'`` read as null) and string-list maps (``''`` as null)."""
    result = {}
    for mapping in (parameter.mapStr, parameter.mapBool, parameter.mapInt, parameter.mapDouble):
        result.update({key: None if value == "None" else value for key, value in mapping.items()})
    for key, value in parameter.mapStrList.items():
        result[key] = [None if item == "" else item for item in value.strValue]
    return result
