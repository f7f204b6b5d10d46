"""Computational-graph figures over HTTP: a real ``mindinsight start``, measured from outside.

``python bench/graph_http_bench.py`` (or ``python bench/run.py --graph``). The job is the
ResNet-50 training log of the test fixtures (``tests/fixtures/mindspore-2.10/h_resnet50_graph``,
MindSpore 2.10's SummaryCollector: 2,598 graph operators in one summary file), copied to a
temporary base dir. Once the server has the job loaded and has answered the first question
(which builds the node tree), one keep-alive client asks, one request at a time, as the graph
page does:

* the top level, ``graphs/nodes`` without a scope: p50/p99, target <= 100 ms;
* the children of every scope (every ``name_scope`` and ``aggregation_scope`` found by walking
  the levels): the first answer of each (its level's JSON is made then and kept), then
  repeats; the slowest scope, target <= 50 ms;
* name searches ``graphs/nodes/names`` (several patterns, repeated; the graph's first search
  apart): p50/p99, target <= 50 ms.
"""

import http.client
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import server_bench  # noqa: E402

FIXTURE = os.path.join(ROOT, "tests", "fixtures", "mindspore-2.10", "h_resnet50_graph")
TRAIN_ID = "./resnet50"
GRAPHS = f"{server_bench.API}/graphs"
SCOPE_TYPES = ("name_scope", "aggregation_scope")
SEARCHES = ("conv", "bn", "relu", "add", "a")


class Client:
    """One keep-alive connection; ``get`` returns ``(milliseconds, parsed JSON)`` of a 200."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def get(self, path: str, **params) -> tuple[float, dict]:
        target = f"{GRAPHS}/{path}?" + urllib.parse.urlencode({"train_id": TRAIN_ID, **params})
        started = time.perf_counter()
        self.conn.request("GET", target)
        response = self.conn.getresponse()
        body = response.read()
        elapsed = (time.perf_counter() - started) * 1e3
        if response.status != 200:
            raise RuntimeError(f"{target} answered {response.status}: {body[:300]!r}")
        return elapsed, json.loads(body)

    def close(self) -> None:
        self.conn.close()


def percentile(values: list, share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def spread(values: list) -> str:
    return (
        f"p50 {statistics.median(values):.1f} / p99 {percentile(values, 0.99):.1f} / "
        f"max {max(values):.1f} ms over {len(values)} requests"
    )


def wait_loaded(port: int, timeout: float = 300) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        status, body = server_bench.get(port, f"{server_bench.API}/train-jobs?limit=999")
        if status == 200 and body["train_jobs"] and all(job["cache_status"] == "CACHED" for job in body["train_jobs"]):
            status, body = server_bench.get(port, f"{server_bench.API}/plugins?train_id={TRAIN_ID}")
            if status == 200 and body["plugins"].get("graph"):
                return time.perf_counter() - started
        time.sleep(0.1)
    raise RuntimeError("the server did not load the ResNet-50 graph job")


def walk_scopes(client: Client) -> dict[str, float]:
    """Every scope of the graph, found level by level from the top, with the time of the first
    answer of its children (the server makes that level's JSON then, and keeps it)."""
    first, pending = {}, [""]
    while pending:
        scope = pending.pop()
        elapsed, body = client.get("nodes", **({"name": scope} if scope else {}))
        if scope:
            first[scope] = elapsed
        pending.extend(node["name"] for node in body["nodes"] if node["type"] in SCOPE_TYPES)
    return first


def measure(port: int, top_repeats: int, scope_repeats: int, search_repeats: int) -> list:
    client = Client(port)
    rows = []
    try:
        first, body = client.get("nodes")
        rows.append(
            (
                "graph: first question (builds the node tree)",
                f"{first:.0f} ms ({len(body['nodes'])} top-level nodes)",
                "-",
                None,
            )
        )
        top = [client.get("nodes")[0] for _ in range(top_repeats)]
        rows.append(("graph: top level (`graphs/nodes`)", spread(top), "p99 <= 100 ms", percentile(top, 0.99) <= 100))

        first_times = walk_scopes(client)
        scopes = list(first_times)
        repeats = {scope: [client.get("nodes", name=scope)[0] for _ in range(scope_repeats)] for scope in scopes}
        every = [ms for values in repeats.values() for ms in values]
        slowest = max(scopes, key=lambda scope: percentile(repeats[scope], 0.99))
        slowest_p99 = percentile(repeats[slowest], 0.99)
        rows.append(
            (
                f"graph: children of any scope ({len(scopes)} scopes x {scope_repeats})",
                f"{spread(every)}; slowest scope p99 {slowest_p99:.1f} ms ({slowest.rsplit('/', 1)[-1]}); "
                f"first answer of each, worst {max(first_times.values()):.1f} ms",
                "slowest scope p99 <= 50 ms",
                slowest_p99 <= 50 and max(first_times.values()) <= 50,
            )
        )

        # The first search of a graph prepares its lower-cased names once: shown apart.
        first_search = client.get("nodes/names", search=SEARCHES[0], offset=0, limit=100)[0]
        searches = {
            pattern: [client.get("nodes/names", search=pattern, offset=0, limit=100)[0] for _ in range(search_repeats)]
            for pattern in SEARCHES
        }
        every = [ms for values in searches.values() for ms in values]
        worst = max(SEARCHES, key=lambda pattern: percentile(searches[pattern], 0.99))
        rows.append(
            (
                f"graph: name search (`graphs/nodes/names`, {', '.join(SEARCHES)})",
                f"{spread(every)}; slowest pattern '{worst}' p99 {percentile(searches[worst], 0.99):.1f} ms; "
                f"first search of the graph {first_search:.1f} ms",
                "p99 <= 50 ms",
                percentile(every, 0.99) <= 50 and first_search <= 50,
            )
        )
    finally:
        client.close()
    return rows


def run(top_repeats: int = 200, scope_repeats: int = 5, search_repeats: int = 20) -> list:
    """Rows ``(figure, measured, target, met)`` of the graph serving figures."""
    base = tempfile.mkdtemp(prefix="mi-bench-graph-")
    workspace = tempfile.mkdtemp(prefix="mi-bench-ws-")
    shutil.copytree(FIXTURE, os.path.join(base, TRAIN_ID[2:]))
    for name in os.listdir(os.path.join(base, TRAIN_ID[2:])):
        os.chmod(os.path.join(base, TRAIN_ID[2:], name), 0o644)  # the fixture files are read-only
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    port = server_bench.free_port()
    started = server_bench.cli(
        "start", "--summary-base-dir", base, "--port", str(port), "--workspace", workspace,
        "--reload-interval", "3", env=env,
    )  # fmt: skip
    if started.returncode != 0:
        raise RuntimeError(f"mindinsight start failed: {started.stdout}{started.stderr}")
    try:
        loaded = wait_loaded(port)
        print(f"  ResNet-50 graph job loaded {loaded:.2f} s after start", flush=True)
        rows = measure(port, top_repeats, scope_repeats, search_repeats)
        for row in rows:
            print(f"  {row[0]}: {row[1]}", flush=True)
        return rows
    finally:
        server_bench.cli("stop", "--port", str(port), "--workspace", workspace, env=env)
        shutil.rmtree(base, ignore_errors=True)
        shutil.rmtree(workspace, ignore_errors=True)


if __name__ == "__main__":
    for label, detail, target, met in run():
        mark = "n/a" if met is None else ("yes" if met else "NO")
        print(f"| {label} | {detail} | {target} | {mark} |")
