"""The lineage search of 10,000 jobs on the real server, paged as the lineage pages ask for it:
a page of rows (sorted on the server, narrowed by a query) holds the rows the whole sorted list
holds at that place, and asked again, the same. The jobs are the real lineage files of
h_lineage_30_runs, hard-linked into 10,000 job directories (job i is run i % 30). How long a
page takes is measured by bench/many_runs_bench.py (target 300 ms), not here."""

import requests

from tests.helpers.many_lineage_jobs import link_lineage_jobs
from tests.helpers.server import running_server

JOBS = 10_000
# The first search waits for the lineage of every job to be parsed (the store's first pass).
FIRST_ANSWER_TIMEOUT = 600
MODEL = {"lineage_type": {"in": ["model"]}}


def search(server, body: dict, timeout: float = 30) -> dict:
    """The answer of a lineage search."""
    response = requests.post(server.api + "/lineagemgr/lineages", json=body, timeout=timeout)
    assert response.status_code == 200, response.text
    return response.json()


def page(server, body: dict) -> dict:
    """The answer, the same when asked again."""
    answer = search(server, body)
    assert search(server, body) == answer
    return answer


def test_pages_of_10_000_jobs_lineage_hold_the_sorted_rows(tmp_path):
    base = tmp_path / "base"
    link_lineage_jobs(base, JOBS)
    with running_server(base, tmp_path / "ws", reload_interval=3) as server:
        everything = search(server, MODEL, timeout=FIRST_ANSWER_TIMEOUT)
        assert everything["count"] == len(everything["object"]) == JOBS
        loss = {item["summary_dir"]: item["model_lineage"]["metric"]["Loss"] for item in everything["object"]}
        newest_first = [item["summary_dir"] for item in everything["object"]]

        first = page(server, {**MODEL, "limit": 10, "offset": 0})
        assert first["count"] == JOBS and [item["summary_dir"] for item in first["object"]] == newest_first[:10]
        chart = page(server, {**MODEL, "limit": 100, "offset": 0})
        assert [item["summary_dir"] for item in chart["object"]] == newest_first[:100]

        by_loss = sorted(newest_first, key=lambda run: -loss[run])  # stable, as the server sorts
        body = {**MODEL, "limit": 50, "offset": 37, "sorted_name": "metric/Loss", "sorted_type": "descending"}
        sorted_page = page(server, body)
        assert [item["summary_dir"] for item in sorted_page["object"]] == by_loss[37 * 50 : 38 * 50]

        adam = [item["summary_dir"] for item in everything["object"] if item["model_lineage"]["optimizer"] == "Adam"]
        body = {**MODEL, "limit": 20, "offset": 3, "query": 'optimizer == "Adam"'}
        queried = page(server, body)
        assert queried["count"] == len(adam) > 100
        assert [item["summary_dir"] for item in queried["object"]] == adam[60:80]
