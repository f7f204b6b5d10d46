"""Files the server cannot read, through the real server (issue 17, section 3): they hide no
other file, train-jobs names them with the reason, the log says so once per change, and a
lineage file that failed is read again once it can be.

The server runs with ``obey_file_modes``: as root it would read a ``chmod 000`` file anyway.
"""

import os
import time

from mindinsight.summary.writer import SummaryWriter
from tests.helpers.fixtures import MULTI_RUNS, copy_job
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

TAG = "loss/scalar"
RUN1 = f"./{MULTI_RUNS[0]}"


def write(job_dir, steps, timestamp) -> str:
    with SummaryWriter(job_dir, timestamp=timestamp) as writer:
        for step in steps:
            writer.add_scalar("loss", float(step), step, wall_time=1700000000.0 + step)
    return writer.path


def served_steps(server, train_id):
    answer = server.get("/datavisual/scalar/metadata", params={"train_id": train_id, "tag": TAG})
    return [point["step"] for point in answer.json()["metadatas"]] if answer.status_code == 200 else answer.status_code


def job_item(server, train_id) -> dict:
    answer = server.get("/datavisual/train-jobs", params={"train_id": train_id})
    assert answer.status_code == 200, answer.text
    return answer.json()["train_jobs"][0]


def app_log(server) -> str:
    return (server.workspace / "log" / "app" / f"mindinsight.{server.port}.log").read_text()


def test_an_unreadable_older_file_hides_nothing_newer(tmp_path):
    base = tmp_path / "base"
    older = write(base / "run", range(1, 11), timestamp=100)
    write(base / "run", range(11, 21), timestamp=200)
    os.chmod(older, 0)
    name = os.path.basename(older)
    with running_server(base, tmp_path / "ws", reload_interval=1, obey_file_modes=True) as server:
        server.get("/datavisual/plugins", params={"train_id": "./run", "manual_update": "true"})
        wait_for(lambda: served_steps(server, "./run") == list(range(11, 21)))
        job = job_item(server, "./run")
        assert job["unreadable_files"] == [{"path": f"run/{name}", "reason": "Permission denied"}]
        assert job["is_integrity"] is False and job["skipped_records"] == 0
        assert job["plugins"]["scalar"] == [TAG] and job["summary_files"] == 2  # every original field stays

        time.sleep(4)  # several reloads (one a second), each meeting the file again
        assert served_steps(server, "./run") == list(range(11, 21))
        assert app_log(server).count(name) == 1  # said once, not on every reload

        os.chmod(older, 0o644)  # readable again: its steps join, the report goes
        wait_for(lambda: served_steps(server, "./run") == list(range(1, 21)))
        job = job_item(server, "./run")
        assert job["unreadable_files"] == [] and job["is_integrity"] is True


def test_a_job_whose_every_file_is_unreadable_says_so(tmp_path):
    base = tmp_path / "base"
    paths = [write(base / "run", range(1, 6), timestamp=100), write(base / "run", range(6, 9), timestamp=200)]
    for path in paths:
        os.chmod(path, 0)
    with running_server(base, tmp_path / "ws", reload_interval=1, obey_file_modes=True) as server:
        job = wait_for(lambda: (item := job_item(server, "./run"))["cache_status"] == "CACHED" and item)
        wait_for(lambda: len(job_item(server, "./run")["unreadable_files"]) == 2)
        job = job_item(server, "./run")
        assert job["unreadable_files"] == [
            {"path": f"run/{os.path.basename(path)}", "reason": "Permission denied"} for path in paths
        ]
        assert job["is_integrity"] is False
        time.sleep(3)  # the newest file is tried on every reload (it may become readable): logged once
        assert [app_log(server).count(os.path.basename(path)) for path in paths] == [1, 1]


def test_a_lineage_file_that_failed_is_read_again_after_a_reload(tmp_path):
    base = tmp_path / "base"
    job_dir = copy_job(f"c_multi_runs/{MULTI_RUNS[0]}", base / MULTI_RUNS[0])
    # MindSpore's second lineage file holds the evaluation: the test dataset's size among it.
    evaluation = sorted(job_dir.glob("*_lineage"))[-1]
    evaluation.chmod(0)

    def model_lineage():
        answer = server.post("/lineagemgr/lineages", json={"summary_dir": {"eq": RUN1}})
        assert answer.status_code == 200, answer.text
        found = answer.json()["object"]
        return found[0]["model_lineage"] if found else None

    with running_server(base, tmp_path / "ws", reload_interval=1, obey_file_modes=True) as server:
        lineage = wait_for(model_lineage)
        assert lineage["train_dataset_count"] == 960 and lineage["test_dataset_count"] is None
        wait_for(lambda: job_item(server, RUN1)["unreadable_files"])
        assert job_item(server, RUN1)["unreadable_files"] == [
            {"path": f"{MULTI_RUNS[0]}/{evaluation.name}", "reason": "Permission denied"}
        ]
        time.sleep(2.5)  # reloads meet it again

        # Made readable without touching its content or times (only its ctime moves).
        evaluation.chmod(0o644)
        wait_for(lambda: model_lineage()["test_dataset_count"] == 192)
        wait_for(lambda: job_item(server, RUN1)["unreadable_files"] == [])
        assert app_log(server).count(f"lineage file {evaluation}") == 1  # logged once, not per reload
