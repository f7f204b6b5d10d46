"""The runs table over 10,000 train jobs on the real server: its first page, a page sorted on a
column and a query over every run hold the rows the whole sorted list holds at that place.
How long they take is measured by bench/many_runs_bench.py (targets 300 and 200 ms), not here."""

import time

from tests.helpers.many_jobs import job_name, write_tiny_jobs
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

JOB_DIRS = 10_000


def runs(server, **params) -> dict:
    response = server.get("/datavisual/runs", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_pages_of_10_000_runs_sorted_and_queried(tmp_path):
    base = tmp_path / "base"
    write_tiny_jobs(base, JOB_DIRS)
    newest_first = [f"./{job_name(i)}" for i in reversed(range(JOB_DIRS))]
    with running_server(base, tmp_path / "ws", reload_interval=3) as server:
        wait_for(lambda: server.get("/datavisual/train-jobs").json()["load_status"] == "loaded", timeout=120)
        time.sleep(4)  # past a reload's scan

        body = runs(server, limit=54)
        assert body["total"] == body["runs"] == JOB_DIRS
        assert [row["train_id"] for row in body["rows"]] == newest_first[:54]

        body = runs(server, sort="name", order="asc", offset=9_990, limit=14)
        assert [row["train_id"] for row in body["rows"]] == sorted(newest_first)[9_990:]

        # Jobs in the detail cache have a loss summary (tiny job i logs loss 1/(i+1)): the
        # cached ones sort first by it, the 10,000 - cached others (null) last.
        body = runs(server, sort="loss.last", order="asc", columns=["loss.last"], limit=20)
        cached = [row for row in body["rows"] if row["cached"]]
        losses = [row["values"]["loss.last"] for row in cached]
        assert cached and losses == sorted(losses) and None not in losses
        assert [row["values"]["loss.last"] for row in body["rows"][len(cached) :]] == [None] * (20 - len(cached))

        for digit in range(5):
            body = runs(server, query=f'name ~ "job_0{digit}99[0-9]" and not name ~ "debug"', limit=50)
            assert body["total"] == 10 and body["runs"] == JOB_DIRS
            newest_matching = [f"./{job_name(digit * 1000 + 999 - i)}" for i in range(10)]
            assert [row["train_id"] for row in body["rows"]] == newest_matching
