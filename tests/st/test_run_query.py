"""The query language through the real server (the ``mindinsight`` CLI, gunicorn, the ASGI front):
the lineage search's ``query``, ``train-jobs?query=`` (a reusable answer: a new query is a new
answer), metric summaries once the jobs are read, errors as JSON 400 naming the place."""

import time

from tests.helpers.fixtures import MULTI_RUNS, copy_job
from tests.helpers.server import running_server

LINEAGE_RUNS = ("run_03", "run_04", "run_08", "run_20", "run_26")  # Adam x4 (lr 0.001..0.01), SGD
RUN3 = f"./{MULTI_RUNS[2]}"  # Adam, lr 0.001: its loss ends lowest of the three


def names(answer) -> list:
    return sorted(item.get("summary_dir") or item.get("train_id") for item in answer)


def test_queries_narrow_lineage_and_train_jobs(tmp_path):
    base = tmp_path / "base"
    for name in LINEAGE_RUNS:
        copy_job(f"h_lineage_30_runs/{name}", base / name)
    for name in MULTI_RUNS:
        copy_job(f"c_multi_runs/{name}", base / name)
    with running_server(base, tmp_path / "workspace") as server:
        query = 'optimizer == "Adam" and lr < 0.01 and not name ~ "run_0[0-3]"'
        found = server.post("/lineagemgr/lineages", json={"query": query, "sorted_name": "summary_dir"})
        assert found.status_code == 200, found.text
        assert names(found.json()["object"]) == sorted(["./run_04", "./run_08", RUN3])
        assert found.json()["count"] == 3

        listed = server.get("/datavisual/train-jobs", params={"query": query, "limit": 50})
        assert listed.status_code == 200 and listed.json()["total"] == 3
        assert names(listed.json()["train_jobs"]) == sorted(["./run_04", "./run_08", RUN3])
        other = server.get("/datavisual/train-jobs", params={"query": 'optimizer == "SGD"', "limit": 50})
        assert names(other.json()["train_jobs"]) == ["./run_26"]
        assert server.get("/datavisual/train-jobs", params={"limit": 50}).json()["total"] == 8

        # Scalar summaries: of the jobs in the detail cache (a page opening a job puts it there).
        multi = [f"./{name}" for name in MULTI_RUNS]
        assert server.post("/datavisual/train-job-caches", json={"train_ids": multi}).status_code == 200
        deadline, answer = time.monotonic() + 60, None
        while time.monotonic() < deadline:
            answer = server.get("/datavisual/train-jobs", params={"query": "loss.last < 10", "limit": 50}).json()
            if answer["total"] == len(MULTI_RUNS):
                break
            time.sleep(0.5)
        assert names(answer["train_jobs"]) == multi
        lowest = server.post("/lineagemgr/lineages", json={"query": "loss.last < 0.01"}).json()
        assert names(lowest["object"]) == [RUN3]

        for path, send in (
            ("/lineagemgr/lineages", lambda text: server.post("/lineagemgr/lineages", json={"query": text})),
            ("/datavisual/train-jobs", lambda text: server.get("/datavisual/train-jobs", params={"query": text})),
        ):
            refused = send('lr < 0.01 and (name ~ "x"')
            assert refused.status_code == 400, path
            assert refused.json()["error_code"] == "50540201"
            assert "line 1, column 26: the query ends early" in refused.json()["error_msg"]
            hostile = send('name ~ "(a+)+$" and name ~ "(?P<x>a)(?P=x)"')
            assert hostile.status_code == 400 and hostile.json()["error_code"] == "50540202"
