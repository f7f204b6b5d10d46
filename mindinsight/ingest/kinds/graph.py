"""Graphs: a GraphProto per graph file (``graph_def`` events of summary files, ``.pb`` files).

Graphs do not arrive as ``Summary.Value`` items: a summary file's ``graph_def`` events and a
``.pb`` file's ModelProto each give one graph, stored under the file's name as the tag. Of the
summary files only the newest graph survives; ``.pb`` graphs stay beside it. The optimized
view is a second kind over the same graphs (``<tag> (optimized)``), written together with it.

TensorBoard event files carry a ``GraphDef`` in ``Event.graph_def``: it is turned into the same
``GraphProto`` (``format/tb_graph.py``) and stored as a summary file's graph is.
"""

from google.protobuf.message import DecodeError

from mindinsight.conf import limits
from mindinsight.conf.plugins import OPTIMIZED_GRAPH_SUFFIX, PREFERRED_GRAPH_FILE, PluginName
from mindinsight.format import naming, tb_graph
from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.ingest.kinds.base import (
    EventSamples,
    FileSamples,
    Kind,
    Rejected,
    TensorBoardValues,
    as_column,
    message_codec,
)

# plugin -> the suffix its tag adds to the graph file's name
_VIEWS = {PluginName.GRAPH: "", PluginName.OPTIMIZED_GRAPH: OPTIMIZED_GRAPH_SUFFIX}


def _add_graph(data, name: str, step: int, wall_time: float, graph, file_ts: int = 0) -> None:
    """``graph`` as the one sample of tag ``name`` in both views, replacing what it held."""
    for plugin, suffix in _VIEWS.items():
        tag = name + suffix
        data.remove_tags(plugin, keep=lambda t, tag=tag: t != tag)
        data.add_batch(
            plugin, tag, {"step": [step], "wall_time": [wall_time], "file_ts": [file_ts], "graph": as_column([graph])}
        )


def _store_event_graphs(data, file_name: str, graphs: list, file_ts: int) -> None:
    # Only the newest summary-file graph survives: the graphs of older summary files go.
    for plugin, suffix in _VIEWS.items():
        data.remove_tags(plugin, keep=lambda tag, suffix=suffix: naming.is_graph_pb_file(tag.removesuffix(suffix)))
    step, wall_time, graph = graphs[-1]
    _add_graph(data, file_name, step, wall_time, graph, file_ts)


def _event_graph(_event, payload: bytes):
    # Parsed again from the payload: the decoder's Event object is reused for the next record.
    return summary_pb.Event.FromString(payload).graph_def


def _tensorboard_graph(event):
    try:
        return tb_graph.to_graph_proto(tb_graph.parse_graph_def(event.graph_def))
    except DecodeError:
        return Rejected.because("graph_undecodable")


def _store_pb_graph(data, name: str, mtime: float, graph) -> None:
    _add_graph(data, name, 0, mtime, graph)


def _graph_kind(plugin: PluginName, **sources) -> Kind:
    return Kind(
        plugin,
        {"graph": object},
        limits.STEPS_PER_TAG[plugin],
        max_tags=limits.MAX_TAGS_PER_PLUGIN[plugin],
        preferred_tags=frozenset({PREFERRED_GRAPH_FILE + _VIEWS[plugin]}),
        # Both views hold one GraphProto object per graph: restored, they share one again.
        codec=message_codec("graph", anf_ir.GraphProto, share=True),
        **sources,
    )


KIND = _graph_kind(
    PluginName.GRAPH,
    events=EventSamples("graph_def", _event_graph, _store_event_graphs),
    tensorboard=TensorBoardValues(events={"graph_def": _tensorboard_graph}),
    # A .pb holds one graph, as a graph event's payload: the same bound applies.
    files=FileSamples(
        naming.is_graph_pb_file,
        limits.MAX_EVENT_PAYLOAD_BYTES,
        lambda data: anf_ir.ModelProto.FromString(data).graph,
        _store_pb_graph,
    ),
)
OPTIMIZED_KIND = _graph_kind(PluginName.OPTIMIZED_GRAPH)
KINDS = (KIND, OPTIMIZED_KIND)
