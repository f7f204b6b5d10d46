"""``/datavisual/graphs/*``: the computational graph by scope level, its leaves, the path to a
node and the node-name search (rest-api.md 7)."""

from marshmallow import Schema

from mindinsight.backend.api.routing import Topic
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
GRAPH_ERRORS = (TrainJobNotExistError, GraphNotExistError, NodeNotInGraphError)


class GraphArgs(Schema):
    # ``mode`` is checked by the service: the original answers "Invalid mode" (50540002).
    train_id = Text(required=True)
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


@TOPIC.get(
    "/datavisual/graphs/nodes",
    serving=SERVING,
    args=ScopeArgs(),
    errors=GRAPH_ERRORS,
    example={"train_id": EXAMPLE_JOB, "name": "Default"},
)
def graph_nodes(manager, train_id, tag, mode, name):
    """``{nodes: [Node]}``: the direct children of scope ``name`` (absent: the top level)."""
    return graphs.nodes(manager, train_id, tag, mode, name)


@TOPIC.get(
    "/datavisual/graphs/nodes/all",
    serving=SERVING,
    args=ScopeArgs(),
    errors=GRAPH_ERRORS,
    example={"train_id": EXAMPLE_JOB},
)
def graph_all_nodes(manager, train_id, tag, mode, name):
    """``{all_nodes_detail: [Node]}``: every leaf node below scope ``name``."""
    return graphs.all_nodes(manager, train_id, tag, mode, name)


@TOPIC.get(
    "/datavisual/graphs/nodes/names",
    serving=SERVING,
    args=SearchArgs(),
    errors=(TrainJobNotExistError, GraphNotExistError),
    example={"train_id": EXAMPLE_JOB, "search": "conv", "offset": 0, "limit": 5},
)
def graph_node_names(manager, train_id, tag, mode, search, offset, limit):
    """``{nodes: [tree]}``: one page of the nodes whose last name segment holds ``search``."""
    return graphs.node_names(manager, train_id, tag, mode, search, offset, limit)


@TOPIC.get(
    "/datavisual/graphs/single-node",
    serving=SERVING,
    args=NodeArgs(),
    errors=GRAPH_ERRORS,
    example={"train_id": EXAMPLE_JOB, "name": "Default"},
)
def graph_single_node(manager, train_id, tag, mode, name):
    """``{nodes, scope_name, children}``: the levels from the top down to node ``name``."""
    return graphs.single_node(manager, train_id, tag, mode, name)
