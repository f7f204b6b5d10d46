"""The computational graph through the real server: a LeNet graph walked level by level, the
path to one op, a search, and the documented errors, with scope names URL-encoded as the UI
sends them."""

LENET = "./a_lenet_collector"
CONV = "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/Conv2D-op0"


def test_graph_levels_path_and_search(fixture_server):
    def nodes(name=None, **params):
        response = fixture_server.get("/datavisual/graphs/nodes", params={"train_id": LENET, "name": name, **params})
        assert response.status_code == 200
        return response.json()["nodes"]

    assert [n["name"] for n in nodes()] == ["Default", "Gradients"]
    seen, pending = 0, ["Default", "Gradients"]
    while pending:
        for node in nodes(pending.pop()):
            seen += 1
            if node["type"] in ("name_scope", "aggregation_scope"):
                pending.append(node["name"])
    assert seen + 2 == 169  # every node of the tree (the original's count for this graph)
    path = fixture_server.get("/datavisual/graphs/single-node", params={"train_id": LENET, "name": CONV}).json()
    depth = 0
    while path:
        depth, path = depth + 1, path["children"]
    assert depth == CONV.count("/") + 1
    found = fixture_server.get(
        "/datavisual/graphs/nodes/names", params={"train_id": LENET, "search": "Conv2D-op", "limit": 1000}
    ).json()["nodes"]
    assert [item["name"] for item in found] == ["Default"]  # the gradient ops are Conv2DBackprop*
    assert len(nodes(mode="optimize")) == 1  # the optimized view has no gradient part


def test_graph_errors(fixture_server):
    def error(path, **params):
        response = fixture_server.get(f"/datavisual/graphs/{path}", params={"train_id": LENET, **params})
        assert response.status_code == 400
        return response.json()["error_code"]

    assert error("nodes", name="Default/nope") == "50545009"
    assert error("nodes", tag="nope") == "5054500C"
    assert error("nodes", mode="bad") == "50540002"
    assert error("single-node") == "50540003"
    assert error("nodes/names", limit=1001) == "50540002"
    assert error("nodes", train_id="./nope") == "50545005"
