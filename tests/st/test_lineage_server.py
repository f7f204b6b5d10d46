"""Lineage through the real server: tags and remarks survive a restart (kept in the workspace)."""

import requests

from tests.helpers.fixtures import MULTI_RUNS, copy_job
from tests.helpers.server import running_server

RUN1, RUN2 = (f"./{name}" for name in MULTI_RUNS[:2])


def lineages(server, body):
    response = server.post("/lineagemgr/lineages", json=body)
    assert response.status_code == 200, response.text
    return {item["summary_dir"]: item for item in response.json()["object"]}


def put(server, train_id, body):
    return requests.put(f"{server.api}/lineagemgr/lineages", params={"train_id": train_id}, json=body, timeout=10)


def test_tags_and_remarks_survive_a_restart(tmp_path):
    base = tmp_path / "base"
    for name in MULTI_RUNS:
        copy_job(f"c_multi_runs/{name}", base / name)
    workspace = tmp_path / "workspace"
    with running_server(base, workspace) as server:
        assert lineages(server, {})[RUN1]["added_info"] == {}
        assert put(server, RUN1, {"tag": 4, "remark": "first try"}).json() == {"status": "success"}
        assert put(server, RUN2, {"tag": 9}).status_code == 200
        assert put(server, RUN1, {"remark": "kept"}).status_code == 200
        refused = put(server, RUN1, {"tag": 99})
        assert refused.status_code == 400 and refused.json()["error_code"] == "50542081"
    with running_server(base, workspace) as server:
        found = lineages(server, {"sorted_name": "tag", "sorted_type": "descending"})
        assert found[RUN1]["added_info"] == {"tag": 4, "remark": "kept"}
        assert found[RUN2]["added_info"] == {"tag": 9}
        assert list(found)[:2] == [RUN2, RUN1]
        graph = server.get("/datasets/dataset_graph", params={"train_id": RUN1}).json()
        assert graph["summary_dir"] == RUN1 and graph["dataset_graph"]["children"]
