"""A job's ``LineageData`` as the plain dicts the lineage API answers with.

Field facts (the original's mapping): the model lineage holds ``loss_function``, ``optimizer``,
``learning_rate``, ``epoch``, ``batch_size``, ``device_num`` from the train lineage's hyper
parameters, ``train_dataset_path``/``_count`` from its train dataset (``train_dataset_size``),
``network`` and ``loss`` from its algorithm, ``model_size`` from its model (an int64 the JSON
conversion prints as a string, turned back into an int); ``test_dataset_path``/``_count`` from
the evaluation lineage's valid dataset, ``metric`` from the evaluation lineage's JSON string. A
proto field left at its default is absent (``None``), as protobuf's JSON conversion drops it.
"""

import json
from dataclasses import dataclass

from google.protobuf.json_format import MessageToDict

from mindinsight.ingest.containers import LineageData

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
    return LineageDicts(model, graph)


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
