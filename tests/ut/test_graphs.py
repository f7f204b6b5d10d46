"""``/datavisual/graphs/*`` over real MindSpore 2.10 graphs: the LeNet summary graph of
a_lenet_collector and b_summary_ops, and the four ``save_graphs`` ``.pb`` files of f_save_graphs.

Facts relied on (the original's graph handling): op nodes are named ``<scope>/<type>-op<id>``
unless MindSpore gives a full name; every ``/`` prefix is a ``name_scope`` node; 5 or more nodes of
one type in one scope fold into an ``aggregation_scope`` ``<type>[<count>]_<n>`` (10 in the
optimized view); parameters and consts are copied into each scope that uses them; a search
matches (any case) within the last name segment and is paged by a page index ``offset``.
"""

import pytest

from mindinsight.conf.limits import MIN_GRAPH_GROUP_NODES

API = "/v1/mindinsight/datavisual/graphs"
LENET = "./a_lenet_collector"
NODE_FIELDS = {
    "name",
    "type",
    "is_dynamic_shape_node",
    "attr",
    "input",
    "output",
    "output_i",
    "proxy_input",
    "proxy_output",
    "subnode_count",
    "independent_layout",
    "stack_info",
}
PB_FILES = ["ms_output_optimize.pb", "ms_output_after_opt_0.pb", "ms_output_before_opt_0.pb", "ms_output_vm_build_0.pb"]


def ok(client, path, **params):
    response = client.get(f"{API}/{path}", query_string=params)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def refused(client, path, code, **params):
    response = client.get(f"{API}/{path}", query_string=params)
    assert response.status_code == 400
    body = response.get_json()
    assert body["error_code"] == code, body
    return body["error_msg"]


def walk(client, train_id, scope="", **params):
    """Every node of the graph, level by level through the ``nodes`` endpoint."""
    found = {}
    pending = [scope]
    while pending:
        level = ok(client, "nodes", train_id=train_id, name=pending.pop(), **params)["nodes"]
        for node in level:
            assert set(node) == NODE_FIELDS
            found[node["name"]] = node
            if node["type"] in ("name_scope", "aggregation_scope"):
                pending.append(node["name"])
    return found


@pytest.mark.parametrize("train_id", [LENET, "./b_summary_ops"])
def test_top_level_is_the_name_scopes(client, train_id):
    top = ok(client, "nodes", train_id=train_id)["nodes"]
    assert [(n["name"], n["type"]) for n in top] == [("Default", "name_scope"), ("Gradients", "name_scope")]
    # without a tag the first graph tag is used; naming it gives the same answer
    tag = client.get(f"/v1/mindinsight/datavisual/plugins?train_id={train_id}").get_json()["plugins"]["graph"][0]
    assert ok(client, "nodes", train_id=train_id, tag=tag)["nodes"] == top


def test_every_level_counts_its_children_and_edges_point_at_nodes(client):
    nodes = walk(client, LENET)
    for name, node in nodes.items():
        children = [n for n in nodes if n.rpartition("/")[0] == name]
        assert node["subnode_count"] == len(children)
        assert (node["type"] in ("name_scope", "aggregation_scope")) == bool(children)
        for kind in ("input", "output"):
            for target, edge in node[kind].items():
                assert target in nodes, (name, kind, target)
                assert edge["edge_type"] in ("data", "control") and isinstance(edge["shape"], list)
    conv = nodes["Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/Conv2D-op0"]
    assert conv["type"] == "Conv2D" and conv["attr"]["pad_mode"].startswith("dtype: ")
    weight = "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/conv1.weight"
    # the weight reaches the convolution through a Load in the backbone scope
    assert any(source.endswith("Load-op0") for source in conv["input"])
    assert weight not in nodes or nodes[weight]["type"] == "Parameter"
    parameters = [n for n in nodes.values() if n["type"] == "Parameter"]
    assert parameters and all(set(p["attr"]) == {"type", "shape"} for p in parameters)
    assert all(p["input"] == {} and p["output"] for p in parameters)  # copied where used, unused dropped
    assert any(n["type"] == "Const" for n in nodes.values())


def test_aggregation_scopes_group_five_or_more_of_a_type(client):
    nodes = walk(client, LENET)
    groups = [n for n in nodes.values() if n["type"] == "aggregation_scope"]
    assert groups
    for group in groups:
        base = group["name"].rpartition("/")[2]
        node_type, count = base.split("[")[0], int(base.split("[")[1].split("]")[0])
        members = [n for n in nodes.values() if n["name"].rpartition("/")[0] == group["name"]]
        grouped = [m for m in members if m["type"] != "Const"]  # consts are copied in after grouping
        assert count == len(grouped) >= MIN_GRAPH_GROUP_NODES and group["subnode_count"] == len(members)
        assert {m["type"] for m in grouped} == {node_type}
        if node_type == "Parameter":
            assert group["independent_layout"] and all(m["independent_layout"] for m in members)
    by_scope_type = {}
    for node in nodes.values():
        if node["type"] not in ("name_scope", "aggregation_scope", "Const"):
            key = (node["name"].rpartition("/")[0], node["type"])
            by_scope_type[key] = by_scope_type.get(key, 0) + 1
    assert max(by_scope_type.values()) < MIN_GRAPH_GROUP_NODES or all(
        nodes.get(scope, {}).get("type") == "aggregation_scope"
        for (scope, _), count in by_scope_type.items()
        if count >= MIN_GRAPH_GROUP_NODES
    )


def test_a_scope_inherits_edges_crossing_its_border(client):
    default = {n["name"]: n for n in ok(client, "nodes", train_id=LENET, name="Default")["nodes"]}
    network = default["Default/network-WithLossCell"]
    assert network["output"] and all(not t.startswith("Default/network-WithLossCell/") for t in network["output"])


def test_all_nodes_lists_every_leaf_below_a_scope(client):
    nodes = walk(client, LENET)
    leaves = ok(client, "nodes/all", train_id=LENET)["all_nodes_detail"]
    assert sorted(n["name"] for n in leaves) == sorted(
        name for name, node in nodes.items() if node["type"] not in ("name_scope", "aggregation_scope")
    )
    below = ok(client, "nodes/all", train_id=LENET, name="Gradients")["all_nodes_detail"]
    assert below and all(n["name"].startswith("Gradients/") for n in below)
    assert refused(client, "nodes/all", "50545009", train_id=LENET, name="Nope")


def test_single_node_answers_one_level_per_scope(client):
    name = "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/Conv2D-op0"
    answer = ok(client, "single-node", train_id=LENET, name=name)
    scopes = []
    level = answer
    while level:
        scopes.append(level["scope_name"])
        listed = [n["name"] for n in level["nodes"]]
        assert listed == [n["name"] for n in ok(client, "nodes", train_id=LENET, name=level["scope_name"])["nodes"]]
        level = level["children"]
    assert scopes == ["", "Default", "Default/network-WithLossCell", "Default/network-WithLossCell/_backbone-LeNet5",
                      "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d"]  # fmt: skip
    assert name in [n["name"] for n in ok(client, "nodes", train_id=LENET, name=scopes[-1])["nodes"]]


def test_search_matches_the_last_segment_in_any_case_as_a_tree(client):
    tree = ok(client, "nodes/names", train_id=LENET, search="CONV2D", limit=1000)["nodes"]

    def leaves(items):
        for item in items:
            assert set(item) == {"name", "type", "is_dynamic_shape_node", "nodes"}
            yield from leaves(item["nodes"]) if item["nodes"] else [item]

    found = list(leaves(tree))
    assert found and all("conv2d" in item["name"].rpartition("/")[2].lower() for item in found)
    every = walk(client, LENET)
    matched = {n for n in every if "conv2d" in n.rpartition("/")[2].lower()}
    listed = set()

    def names(items):
        for item in items:
            listed.add(item["name"])
            names(item["nodes"])

    names(tree)
    assert {item["name"] for item in found} <= matched
    assert all(any(n.startswith(m + "/") for m in matched) for n in matched - listed)
    # a matched scope is shown without the matched nodes inside it (the original's tree):
    # conv1-Conv2d is found itself, its Conv2D op is not listed again under it
    conv1 = "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d"
    assert conv1 in listed and f"{conv1}/Conv2D-op0" in matched - listed
    assert tree[0]["type"] == "name_scope"


def test_search_pages_by_page_index(client):
    def count(tree):
        return sum(count(item["nodes"]) if item["nodes"] else 1 for item in tree)

    total = count(ok(client, "nodes/names", train_id=LENET, search="load", limit=1000)["nodes"])
    assert total >= 3
    first = ok(client, "nodes/names", train_id=LENET, search="load", offset=0, limit=2)["nodes"]
    second = ok(client, "nodes/names", train_id=LENET, search="load", offset=1, limit=2)["nodes"]
    assert count(first) == 2 and count(second) == min(2, total - 2) and first != second
    assert ok(client, "nodes/names", train_id=LENET, search="load", offset=999, limit=2)["nodes"] == []
    assert ok(client, "nodes/names", train_id=LENET, search="")["nodes"] == []
    assert ok(client, "nodes/names", train_id=LENET, search="/")["nodes"] == []


def test_errors(client):
    assert refused(client, "nodes", "50540002", train_id=LENET, mode="foo") == "Invalid parameter value. Invalid mode"
    message = refused(client, "nodes", "50545009", train_id=LENET, name="NoSuchScope")
    assert message == "Can not find node in graph by the given node name. node name: NoSuchScope."
    assert refused(client, "single-node", "50545009", train_id=LENET, name="nope").endswith("node name: nope.")
    assert refused(client, "single-node", "50540003", train_id=LENET) == "Param missing. 'name' is required."
    assert refused(client, "nodes", "5054500C", train_id=LENET, tag="no such graph") == "Can not found the graph."
    assert refused(client, "nodes", "5054500C", train_id="./b_summary_ops", tag="loss_op/scalar")
    assert refused(client, "nodes", "50545005", train_id="./lineage_only") == "Train job is not exist."
    assert refused(client, "nodes", "50545005", train_id="./nope")
    assert refused(client, "nodes", "50540003", name="Default")
    limit = refused(client, "nodes/names", "50540002", train_id=LENET, limit=100000000)
    assert limit == "Invalid parameter value. 'limit' should in [1, 1000]."
    typed = refused(client, "nodes/names", "50540001", train_id=LENET, limit="abc")
    assert typed == "Invalid parameter type. 'limit' expect Integer type."
    assert refused(client, "nodes/names", "50540002", train_id=LENET, offset=-1)


def test_pb_graphs_each_answer_in_both_modes(client):
    train_id = "./f_save_graphs"
    for tag in PB_FILES:
        normal = walk(client, train_id, tag=tag)
        optimized = walk(client, train_id, tag=f"{tag} (optimized)", mode="optimize")
        assert normal and optimized
        assert {n.split("/")[0] for n in normal} >= {"Default"}
    # without a tag: the preferred save_graphs file
    assert (
        ok(client, "nodes", train_id=train_id)["nodes"]
        == ok(client, "nodes", train_id=train_id, tag="ms_output_optimize.pb")["nodes"]
    )
    # a normal tag is not an optimized one
    refused(client, "nodes", "5054500C", train_id=train_id, tag="ms_output_optimize.pb", mode="optimize")


def test_optimized_view_hides_training_and_pass_through_ops(client):
    normal = walk(client, LENET)
    nodes = walk(client, LENET, mode="optimize")
    assert "Gradients" in normal and not any(name.split("/")[0] == "Gradients" for name in nodes)
    assert not any("optimizer" in name for name in nodes)
    assert any(n["type"] in ("Load", "MakeTuple", "UpdateState") for n in normal.values())
    assert not any(n["type"] in ("Load", "TupleGetItem", "MakeTuple", "UpdateState") for n in nodes.values())
    for name, node in nodes.items():
        for target in node["input"]:
            assert target in nodes, (name, target)
        if node["type"] == "aggregation_scope":
            assert len([m for m in nodes if m.startswith(name + "/")]) >= 10
        if node["type"] not in ("name_scope", "aggregation_scope", "Parameter", "Const"):
            assert node["input"] or node["output"]
    # the weights reach the convolution directly once the Load between them is gone
    conv = "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/Conv2D-op0"
    assert "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/conv1.weight" in nodes[conv]["input"]
    # a scope of several ReLU ops named after ReLU is lifted into its parent
    backbone = "Default/network-WithLossCell/_backbone-LeNet5"
    assert f"{backbone}/relu-ReLU" in normal and f"{backbone}/relu-ReLU" not in nodes
    assert nodes[f"{backbone}/ReLU-op0"]["type"] == "ReLU"


# Node counts of the original MindInsight 2.3.1 over the same graphs (every scope, aggregation,
# parameter and const copy included), normal and optimized view.
ORIGINAL_NODE_COUNTS = [
    (LENET, None, 169, 52),
    ("./b_summary_ops", None, 214, 82),
    ("./f_save_graphs", "ms_output_optimize.pb", 169, 52),
    ("./f_save_graphs", "ms_output_before_opt_0.pb", 170, 52),
]


@pytest.mark.parametrize(("train_id", "tag", "normal", "optimized"), ORIGINAL_NODE_COUNTS)
def test_node_counts_equal_the_originals(client, train_id, tag, normal, optimized):
    tags = {"tag": tag} if tag else {}
    assert len(walk(client, train_id, **tags)) == normal
    if tag:
        tags = {"tag": f"{tag} (optimized)"}
    assert len(walk(client, train_id, mode="optimize", **tags)) == optimized
