"""``/datavisual/graphs/*``: the computational graph by scope level, its leaves, the path to a
node and the node-name search (docs/BEHAVIOUR.md §5)."""

from mindinsight.backend.api.args import TrainIdArgs
from mindinsight.backend.api.routing import Topic
from mindinsight.backend.api.shapes import (
    ANY,
    BOOLEAN,
    INTEGER,
    STRING,
    array,
    map_of,
    named,
    nullable,
    obj,
    or_empty,
    ref,
)
from mindinsight.backend.params import IntParam, Text
from mindinsight.backend.view_marks import POOLED
from mindinsight.conf.limits import MAX_GRAPH_SEARCH_LIMIT
from mindinsight.errors import GraphNotExistError, NodeNotInGraphError, TrainJobNotExistError
from mindinsight.services import graphs

TOPIC = Topic("graphs")

EXAMPLE_JOB = "./a_lenet_collector"
# The first question about a graph builds its node tree (~0.7 s for ResNet-50's 1,612 ops):
# off the event loop. Later answers read the kept tree.
SERVING = POOLED
GRAPH_ERRORS = (TrainJobNotExistError, GraphNotExistError)

GRAPH_EDGE = named(
    "GraphEdge",
    obj({"shape": array(array(INTEGER)), "edge_type": STRING, "independent_layout": BOOLEAN, "data_type": STRING}),
)
PROXY_EDGE = obj({"edge_type": STRING})
# Edges and proxy edges are keyed by the node at their other end; attributes by name (protobuf text).
GRAPH_NODE = named(
    "GraphNode",
    obj(
        {
            "name": STRING,
            "type": STRING,
            "is_dynamic_shape_node": BOOLEAN,
            "attr": map_of(STRING),
            "input": map_of(GRAPH_EDGE),
            "output": map_of(GRAPH_EDGE),
            "output_i": INTEGER,
            "proxy_input": map_of(PROXY_EDGE),
            "proxy_output": map_of(PROXY_EDGE),
            "subnode_count": INTEGER,
            "independent_layout": BOOLEAN,
            "stack_info": array(ANY, maxItems=0),  # the original's; no stack is kept
        }
    ),
)
# A scope with the next level down to the asked node as ``children`` ({} below the last one).
GRAPH_PATH_LEVEL = named(
    "GraphPathLevel",
    obj({"nodes": array(GRAPH_NODE), "scope_name": STRING, "children": or_empty(ref("GraphPathLevel"))}),
)
GRAPH_NAME_TREE = named(
    "GraphNameTree",
    obj(
        {
            "name": STRING,
            "type": nullable(STRING),
            "is_dynamic_shape_node": BOOLEAN,
            "nodes": array(ref("GraphNameTree")),
        }
    ),
)


class GraphArgs(TrainIdArgs):
    # ``mode`` is checked by the service: the original answers "Invalid mode" (50540002).
    tag = Text(load_default=None)
    mode = Text(load_default="normal")


class ScopeArgs(GraphArgs):
    name = Text(load_default=None)


class NodeArgs(GraphArgs):
    name = Text(required=True)


class SearchArgs(GraphArgs):
    search = Text(load_default=None)
    offset = IntParam(minimum=0, range_message="'{name}' should be greater than or equal to 0.", load_default=0)
    limit = IntParam(minimum=1, maximum=MAX_GRAPH_SEARCH_LIMIT, load_default=100)


# Every graph route reads one graph file of a job (``tag``; absent: the job's first) ...
GRAPH_ROUTES = TOPIC.group(serving=SERVING, errors=GRAPH_ERRORS, example={"train_id": EXAMPLE_JOB})
# ... and most name a scope or node in it (``name``).
SCOPE_ROUTES = GRAPH_ROUTES.group(args=ScopeArgs(), errors=(NodeNotInGraphError,))
TOP_SCOPE = {"name": "Default"}  # in an example: the example graph's top scope


@SCOPE_ROUTES.get("/datavisual/graphs/nodes", example=TOP_SCOPE, answer=obj({"nodes": array(GRAPH_NODE)}))
def graph_nodes(provider, train_id, tag, mode, name):
    """``{nodes: [Node]}``: the direct children of scope ``name`` (absent: the top level)."""
    return graphs.nodes(provider, train_id, tag, mode, name)


@SCOPE_ROUTES.get("/datavisual/graphs/nodes/all", answer=obj({"all_nodes_detail": array(GRAPH_NODE)}))
def graph_all_nodes(provider, train_id, tag, mode, name):
    """``{all_nodes_detail: [Node]}``: every leaf node below scope ``name``."""
    return graphs.all_nodes(provider, train_id, tag, mode, name)


@GRAPH_ROUTES.get(
    "/datavisual/graphs/nodes/names",
    args=SearchArgs(),
    example={"search": "conv", "offset": 0, "limit": 5},
    answer=obj({"nodes": array(GRAPH_NAME_TREE)}),
)
def graph_node_names(provider, train_id, tag, mode, search, offset, limit):
    """``{nodes: [tree]}``: one page of the nodes whose last name segment holds ``search``."""
    return graphs.node_names(provider, train_id, tag, mode, search, offset, limit)


@SCOPE_ROUTES.get("/datavisual/graphs/single-node", args=NodeArgs(), example=TOP_SCOPE, answer=GRAPH_PATH_LEVEL)
def graph_single_node(provider, train_id, tag, mode, name):
    """``{nodes, scope_name, children}``: the levels from the top down to node ``name``."""
    return graphs.single_node(provider, train_id, tag, mode, name)
