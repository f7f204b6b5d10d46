"""A comparison of 100 trainings through the real server: the detail cache holds all of them at
once (the original held 15, so a larger comparison read its jobs again in turn and never had
them all), ``datavisual/scalars`` answers every one's series, and the lineage of TensorBoard
hparams sessions gives the hyper-parameters the comparison page groups runs by."""

import pytest
import requests

from mindinsight.conf.limits import MAX_CACHED_TRAIN_JOBS, MAX_COMPARED_SCALAR_JOBS
from tests.helpers.run_sweep import HPARAMS_LRS, HPARAMS_SEEDS, SWEEP_TAG, sweep_loss, write_hparams_sweep, write_sweep
from tests.helpers.server import running_server
from tests.st.conftest import wait_for


@pytest.fixture(scope="module")
def sweep_server(tmp_path_factory):
    base = tmp_path_factory.mktemp("sweep_base")
    ids = write_sweep(base, configs=5, seeds=20, points=1000)
    hp_ids = write_hparams_sweep(base)
    with running_server(base, tmp_path_factory.mktemp("sweep_ws"), reload_interval=1) as server:
        server.ids, server.hp_ids = ids, hp_ids
        yield server


def statuses(server) -> dict[str, str]:
    jobs = server.get("/datavisual/train-jobs", params={"limit": 999}).json()["train_jobs"]
    return {job["train_id"]: job["cache_status"] for job in jobs}


def test_a_hundred_trainings_are_held_at_once_and_compared(sweep_server):
    ids = sweep_server.ids
    assert len(ids) == MAX_COMPARED_SCALAR_JOBS > MAX_CACHED_TRAIN_JOBS
    asked = sweep_server.post("/datavisual/train-job-caches", json={"train_ids": ids})
    assert asked.status_code == 200, asked.text
    wait_for(lambda: all(statuses(sweep_server).get(train_id) == "CACHED" for train_id in ids), timeout=90)

    answer = requests.get(
        f"{sweep_server.api}/datavisual/scalars", params={"train_id": ids, "tag": SWEEP_TAG}, timeout=60
    )
    assert answer.status_code == 200, answer.text
    series = answer.json()["scalars"]
    assert [item["train_id"] for item in series] == ids
    assert all(len(item["values"]) == 1000 for item in series)
    # cfg3_seed07 at step 500
    item = series[3 * 20 + 7]
    point = next(point for point in item["values"] if point["step"] == 500)
    assert point["value"] == pytest.approx(sweep_loss(3, 7, 500), rel=1e-6)
    # Answering did not push any of them out.
    assert all(statuses(sweep_server)[train_id] == "CACHED" for train_id in ids)


def test_hparams_sessions_give_each_run_its_hyper_parameters(sweep_server):
    def rows():
        body = {"summary_dir": {"in": sweep_server.hp_ids}}
        found = sweep_server.post("/lineagemgr/lineages", json=body).json()["object"]
        return found if len(found) == len(sweep_server.hp_ids) else None

    found = {item["summary_dir"]: item["model_lineage"]["user_defined"] for item in wait_for(rows, timeout=30)}
    expected = {f"./hp_lr{lr}_seed{seed}": {"lr": lr, "seed": seed} for lr in HPARAMS_LRS for seed in HPARAMS_SEEDS}
    assert found == expected
