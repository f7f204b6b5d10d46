"""``/datavisual/graphs/*`` over a large real graph: h_resnet50_graph, MindSpore 2.10's
SummaryCollector on ResNet-50 (one summary file whose graph holds 1,612 operators, 433
parameters and 258 constants; 53 Conv2D among them).

Checked against the file itself, read by the independent reader of tests/helpers/fixtures.py:
every graph tag of the job opens in its mode and every level links only to nodes of the graph;
the leaves are the file's operators (plus parameter and constant copies); a search finds what
the walk finds; the path to a deep node lists each level from the top.
"""

from collections import Counter

import pytest

from tests.helpers.apps import make_app
from tests.helpers.fixtures import FIXTURES, copy_job, read_events

API = "/v1/mindinsight/datavisual/graphs"
JOB = "./resnet50"
SCOPES = ("name_scope", "aggregation_scope")
CONV = (
    "Default/network-WithLossCell/_backbone-ResNet50/layer1-SequentialCell/1-Bottleneck/conv1-SequentialCell/0-Conv2d"
)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    base = tmp_path_factory.mktemp("resnet50")
    copy_job("h_resnet50_graph", base / "resnet50")
    return make_app(base).test_client()


def ok(client, path, **params):
    response = client.get(f"{API}/{path}", query_string={"train_id": JOB, **params})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def walk(client, **params) -> dict:
    """Every node of the graph, level by level through ``nodes``."""
    found, pending = {}, [""]
    while pending:
        scope = pending.pop()
        for node in ok(client, "nodes", **({"name": scope} if scope else {}), **params)["nodes"]:
            assert node["name"] not in found
            found[node["name"]] = node
            if node["type"] in SCOPES:
                pending.append(node["name"])
    return found


def file_graph():
    path = next((FIXTURES / "h_resnet50_graph").glob("*_MS"))
    return [event.graph_def for event in read_events(path) if event.HasField("graph_def")][-1]


def graph_tags(client) -> list[tuple[str, str]]:
    response = client.get("/v1/mindinsight/datavisual/plugins", query_string={"train_id": JOB})
    plugins = response.get_json()["plugins"]
    return [(tag, "normal") for tag in plugins["graph"]] + [(tag, "optimize") for tag in plugins["optimized_graph"]]


def test_every_graph_of_the_job_opens_and_links_only_to_its_nodes(client):
    tags = graph_tags(client)
    assert [mode for _, mode in tags] == ["normal", "optimize"]
    for tag, mode in tags:
        nodes = walk(client, tag=tag, mode=mode)
        assert {name.split("/")[0] for name in nodes} >= {"Default"}
        for name, node in nodes.items():
            for kind in ("input", "output"):
                assert set(node[kind]) <= set(nodes), (tag, name, kind)
            if node["type"] in SCOPES:
                assert node["subnode_count"] == sum(1 for other in nodes if other.rpartition("/")[0] == name)
        leaves = ok(client, "nodes/all", tag=tag, mode=mode)["all_nodes_detail"]
        assert sorted(leaf["name"] for leaf in leaves) == sorted(n for n, v in nodes.items() if v["type"] not in SCOPES)


def test_the_leaves_are_the_files_operators(client):
    graph = file_graph()
    assert (len(graph.node), len(graph.parameters), len(graph.const_vals)) == (1612, 433, 258)
    leaves = ok(client, "nodes/all")["all_nodes_detail"]
    operators = Counter(leaf["type"] for leaf in leaves if leaf["type"] not in ("Parameter", "Const"))
    assert operators == Counter(node.op_type for node in graph.node)
    assert operators["Conv2D"] == 53
    # parameters and constants are copied into the scopes that use them: at least one of each
    assert sum(1 for leaf in leaves if leaf["type"] == "Parameter") >= len(graph.parameters)


def test_search_finds_what_the_walk_finds(client):
    def leaves(items):
        for item in items:
            yield from leaves(item["nodes"]) if item["nodes"] else [item]

    everything = walk(client)
    found = list(leaves(ok(client, "nodes/names", search="conv2d", limit=1000)["nodes"]))
    matched = {name for name in everything if "conv2d" in name.rpartition("/")[2].lower()}
    assert found and {item["name"] for item in found} <= matched
    assert all(everything[item["name"]]["type"] == item["type"] for item in found)
    # one page of 5 results, then the next page: different results, both matches
    first = list(leaves(ok(client, "nodes/names", search="relu", offset=0, limit=5)["nodes"]))
    second = list(leaves(ok(client, "nodes/names", search="relu", offset=1, limit=5)["nodes"]))
    assert len(first) == 5 and len(second) == 5
    assert not {item["name"] for item in first} & {item["name"] for item in second}
    assert all("relu" in item["name"].rpartition("/")[2].lower() for item in first + second)


def test_single_node_lists_every_level_down_to_a_deep_operator(client):
    name = f"{CONV}/Conv2D-op0"
    level = ok(client, "single-node", name=name)
    scopes = []
    while level:
        scopes.append(level["scope_name"])
        listed = [node["name"] for node in level["nodes"]]
        assert listed == [
            node["name"] for node in ok(client, "nodes", **({"name": scopes[-1]} if scopes[-1] else {}))["nodes"]
        ]
        level = level["children"]
    parts = CONV.split("/")
    assert scopes == [""] + ["/".join(parts[: index + 1]) for index in range(len(parts))]
    node = next(node for node in ok(client, "nodes", name=CONV)["nodes"] if node["name"] == name)
    assert node["type"] == "Conv2D" and node["input"]
