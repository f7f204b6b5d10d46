"""The graph ``torch.utils.tensorboard``'s ``add_graph`` wrote (tests/fixtures/tensorboard/torch/model)
and its texts, answered by the real server on the original's graph routes and on /datavisual/texts."""

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.server import running_server
from tests.st.conftest import wait_for

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tensorboard"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())["./model"]
RUN = "./nested/model"  # at any depth below the base dir
FC = "Net/Block[block]/Linear[fc]"
LINEAR = f"{FC}/input.1"  # the first linear layer's op, as add_graph names it


@pytest.fixture(scope="module")
def tb_server(tmp_path_factory):
    base = tmp_path_factory.mktemp("tb_graph") / "base"
    shutil.copytree(FIXTURES / "torch" / "model", base / RUN[2:])
    with running_server(base, tmp_path_factory.mktemp("tb_graph_ws"), reload_interval=1) as server:
        yield server


def answer(server, path: str, **params) -> dict:
    response = server.get(path, params={"train_id": RUN, **params})
    assert response.status_code == 200, response.text
    return response.json()


def graph_tags(server):
    response = server.get("/datavisual/plugins", params={"train_id": RUN})
    return response.json()["plugins"]["graph"] if response.status_code == 200 else None


def test_the_graph_is_listed_under_its_event_file(tb_server):
    tags = wait_for(lambda: graph_tags(tb_server))
    assert len(tags) == 1 and "tfevents" in tags[0]


def test_levels_follow_the_name_scopes(tb_server):
    wait_for(lambda: graph_tags(tb_server))
    top = {node["name"]: node for node in answer(tb_server, "/datavisual/graphs/nodes")["nodes"]}
    assert set(top) == {"input", "output", "Net"}
    assert all(node["type"] == "name_scope" for node in top.values())
    assert set(top["Net"]["input"]) == {"input/x"} and set(top["Net"]["output"]) == {"output/output.1"}

    fc = {node["name"]: node for node in answer(tb_server, "/datavisual/graphs/nodes", name=FC)["nodes"]}
    assert set(fc) == {LINEAR, f"{FC}/weight", f"{FC}/bias"}
    linear = fc[LINEAR]
    assert linear["type"] == "aten::linear"
    assert list(linear["input"]) == ["input/x", f"{FC}/weight/weight.1", f"{FC}/bias/bias.1"]
    assert linear["input"]["input/x"]["shape"] == [[1, 4]]
    assert set(linear["output"]) == {"Net/Block[block]/ReLU[act]/input"}
    assert linear["output"]["Net/Block[block]/ReLU[act]/input"]["shape"] == [[1, 8]]


def test_single_node_and_search(tb_server):
    wait_for(lambda: graph_tags(tb_server))
    level = answer(tb_server, "/datavisual/graphs/single-node", name=LINEAR)
    scopes = []
    while level["children"]:
        level = level["children"]
        scopes.append(level["scope_name"])
    assert scopes == ["Net", "Net/Block[block]", FC]
    assert LINEAR in {node["name"] for node in level["nodes"]}
    found = answer(tb_server, "/datavisual/graphs/nodes/names", search="relu")["nodes"]
    assert "ReLU[act]" in json.dumps(found)
    leaves = answer(tb_server, "/datavisual/graphs/nodes/all")["all_nodes_detail"]
    assert {leaf["type"] for leaf in leaves} >= {"IO Node", "aten::linear", "aten::relu", "prim::GetAttr"}


def test_an_unknown_node_answers_its_error(tb_server):
    wait_for(lambda: graph_tags(tb_server))
    response = tb_server.get("/datavisual/graphs/nodes", params={"train_id": RUN, "name": "Net/no_such"})
    assert response.status_code == 400 and response.json()["error_code"] == "50545009"


def test_texts_equal_what_the_writer_was_given(tb_server):
    wait_for(lambda: graph_tags(tb_server))
    for tag, given in EXPECTED["texts"].items():
        rows = answer(tb_server, "/datavisual/texts", tag=tag)["texts"]
        assert [[row["step"], row["text"], row["shape"]] for row in rows] == given, tag
