"""The computational graph of a job: levels, leaves, node paths and name search (docs/BEHAVIOUR.md §5).

Each graph tag's node tree is built once from its ``GraphProto`` and kept while the tag's
samples are unchanged; every query reads that tree, none lays out the whole graph.
"""

import logging

from mindinsight.cache.provider import DataProvider
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import GraphNotExistError, NodeNotInGraphError, ParamValueError, TrainJobNotExistError
from mindinsight.services.graph import queries
from mindinsight.services.graph.model import GraphModel, InvalidGraphError, build_graph

logger = logging.getLogger(__name__)

# The query's ``mode`` -> the plugin holding that view of the graphs.
MODES = {"normal": PluginName.GRAPH, "optimize": PluginName.OPTIMIZED_GRAPH}


def _tree_builder(plugin: PluginName):
    def build(samples: dict) -> GraphModel | None:
        try:
            return build_graph(samples["graph"][-1], readable=plugin == PluginName.OPTIMIZED_GRAPH)
        except InvalidGraphError as error:
            logger.warning("graph not shown: %s", error)
            return None

    return build


def graph_of(provider: DataProvider, train_id: str, tag: str | None, mode: str) -> GraphModel:
    """The node tree of a graph tag (default: the job's first graph tag of the mode's plugin)."""
    plugin = MODES.get(mode)
    if plugin is None:
        raise ParamValueError("Invalid mode")
    data = provider.job_data(train_id)
    if data is None:  # the original's graph answer names no cause here
        raise TrainJobNotExistError()
    if tag is None:
        tags = data.tags(plugin)
        if not tags:
            raise GraphNotExistError()
        tag = tags[0]
    graph = provider.derived.get(data, plugin, tag, "tree", _tree_builder(plugin))
    if graph is None:
        raise GraphNotExistError()
    return graph


def _check_node(graph: GraphModel, name: str | None) -> str:
    if name and name not in graph.nodes:
        raise NodeNotInGraphError(name)
    return name or ""


def nodes(provider: DataProvider, train_id: str, tag: str | None, mode: str, name: str | None) -> dict:
    """The direct children of scope ``name`` (absent: the top level)."""
    graph = graph_of(provider, train_id, tag, mode)
    scope = _check_node(graph, name)
    return graph.kept_answer("nodes", scope, lambda: {"nodes": graph.level(scope)})


def all_nodes(provider: DataProvider, train_id: str, tag: str | None, mode: str, name: str | None) -> dict:
    """Every leaf node below scope ``name`` (absent: the whole graph)."""
    graph = graph_of(provider, train_id, tag, mode)
    scope = _check_node(graph, name)
    return graph.kept_answer("all", scope, lambda: {"all_nodes_detail": queries.all_leaves(graph, scope)})


def single_node(provider: DataProvider, train_id: str, tag: str | None, mode: str, name: str) -> dict:
    """The levels from the top down to node ``name``."""
    graph = graph_of(provider, train_id, tag, mode)
    return queries.path_levels(graph, _check_node(graph, name))


def node_names(
    provider: DataProvider, train_id: str, tag: str | None, mode: str, search: str | None, offset: int, limit: int
) -> dict:
    """Page ``offset`` of the nodes whose last name segment holds ``search``, as a scope tree."""
    graph = graph_of(provider, train_id, tag, mode)
    return {"nodes": queries.search(graph, search or "", offset, limit)}
