"""TensorBoard hparams on the model-lineage routes of the real server: the sessions that
``add_hparams`` of ``torch.utils.tensorboard`` (tests/fixtures/tensorboard/hparams, what the writer
was given in expected_hparams.json) and of a live ``tensorboardX`` writer create are lineage rows,
hyper-parameters as ``user_defined``, final metrics as ``metric``; tags and remarks persist."""

import contextlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
import requests
from tensorboardX import SummaryWriter

from tests.helpers.server import running_server
from tests.st.conftest import wait_for

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tensorboard"
EXPECTED = json.loads((FIXTURES / "expected_hparams.json").read_text())
LIVE = "live/tbx"


@pytest.fixture(scope="module")
def hp_server(tmp_path_factory):
    base = tmp_path_factory.mktemp("hp") / "base"
    shutil.copytree(FIXTURES / "hparams", base)
    with running_server(base, tmp_path_factory.mktemp("hp_ws"), reload_interval=1) as server:
        server.base = base
        yield server


def session_id(base: Path, run: str) -> str:
    """The train_id of the time-named sub-run ``add_hparams`` wrote below ``run``."""
    (session,) = [path for path in (base / run).iterdir() if path.is_dir()]
    return "./" + session.relative_to(base).as_posix()


def rows(server, body=None) -> dict:
    response = server.post("/lineagemgr/lineages", json=body or {})
    assert response.status_code == 200, response.text
    return {item["summary_dir"]: item for item in response.json()["object"]}


def put(server, train_id, body):
    return requests.put(f"{server.api}/lineagemgr/lineages", params={"train_id": train_id}, json=body, timeout=10)


def test_each_session_is_a_row_with_the_given_hparams_and_metrics(hp_server):
    found = wait_for(lambda: rows(hp_server) if len(rows(hp_server)) >= len(EXPECTED) else None)
    for run, given in EXPECTED.items():
        model = found[session_id(hp_server.base, run)]["model_lineage"]
        assert model["user_defined"] == {name: value for name, value in given["hparams"].items()}
        assert model["metric"] == given["metrics"]
        assert model["learning_rate"] is None and model["loss"] is None
    # the runs holding only the training curves are no rows
    assert not set(found) & {"./" + run for run in EXPECTED}


def test_conditions_and_customized_columns_work_on_hparams(hp_server):
    wait_for(lambda: len(rows(hp_server)) >= len(EXPECTED) or None)
    body = {"user_defined/optimizer": {"eq": "adam"}, "sorted_name": "metric/hparam/accuracy"}
    response = hp_server.post("/lineagemgr/lineages", json=body).json()
    accuracies = [item["model_lineage"]["metric"]["hparam/accuracy"] for item in response["object"]]
    assert accuracies == [0.86, 0.9]
    assert response["customized"]["user_defined/lr"] == {"label": "user_defined/lr", "required": False, "type": "float"}
    assert response["customized"]["metric/hparam/loss"]["required"] is True


def test_objective_panel_ranks_the_hparams(hp_server):
    wait_for(lambda: len(rows(hp_server)) >= len(EXPECTED) or None)
    answer = hp_server.post("/optimizer/targets/search", json={}).json()
    targets = {target["name"]: target for target in answer["targets"]}
    assert set(targets) == {"[M]hparam/accuracy", "[M]hparam/loss"}
    ranked = {item["name"]: item for item in targets["[M]hparam/accuracy"]["hyper_parameters"]}
    assert {"[U]lr", "[U]batch_size"} <= set(ranked)
    assert all(0 < ranked[name]["importance"] <= 1 for name in ("[U]lr", "[U]batch_size"))
    unrecognized = {item["name"] for item in answer["metadata"]["unrecognized_params"]}
    assert "[U]optimizer" in unrecognized  # strings are no numbers


def test_tags_and_remarks_of_a_nested_session_persist(hp_server):
    wait_for(lambda: len(rows(hp_server)) >= len(EXPECTED) or None)
    train_id = session_id(hp_server.base, "sweep/lr0.01")
    answer = put(hp_server, train_id, {"tag": 3, "remark": "best lr"})
    assert answer.status_code == 200 and answer.json() == {"status": "success"}
    assert rows(hp_server)[train_id]["added_info"] == {"tag": 3, "remark": "best lr"}
    with contextlib.closing(sqlite3.connect(hp_server.workspace / "lineage" / "edits.db")) as database:
        stored = database.execute("SELECT tag, remark FROM mindinsight_added_info WHERE train_id = ?", (train_id,))
        assert stored.fetchall() == [(3, "best lr")]
    # a nested run without hparams is refused as the original refuses nested ids
    refused = put(hp_server, "./sweep/lr0.01", {"remark": "x"})
    assert refused.status_code == 400 and refused.json()["error_code"] == "50540002"


def test_live_tensorboardx_session(hp_server):
    run = hp_server.base / LIVE
    with SummaryWriter(str(run)) as writer:
        for step in range(4):
            writer.add_scalar("val/acc", 0.5 + step / 10, step)
        writer.add_hparams({"lr": 0.2, "layers": 4, "act": "relu"}, {"hparam/val_acc": 0.75}, name="final")
    train_id = "./" + LIVE + "/final"
    found = wait_for(lambda: rows(hp_server).get(train_id))
    model = found["model_lineage"]
    assert model["user_defined"] == {"lr": 0.2, "layers": 4, "act": "relu"}
    assert model["metric"] == {"hparam/val_acc": 0.75}
    assert found["dataset_graph"] == {}
