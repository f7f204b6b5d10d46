"""Computational-graph query figures, in process (``python bench/graph_bench.py JOB_DIR``).

JOB_DIR is a summary directory holding a graph (a summary file with a ``graph_def`` event or a
``save_graphs`` ``.pb`` file), e.g. a ResNet-50 training log (1,612 op nodes). The app is built
over a copy of it with the server's own code; each figure is the time of the Flask view as a
test client sees it (no HTTP), median and worst of several runs:

* the first question (builds the node tree once per graph tag);
* the top level (target <= 100 ms), every scope's children (worst <= 50 ms), the first time
  (the level's JSON is made then, and kept) and again;
* node-name searches (target <= 50 ms), and every leaf at once (``nodes/all``).
"""

import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from mindinsight.backend.application import create_app  # noqa: E402
from mindinsight.backend.context import data_manager  # noqa: E402
from mindinsight.conf.settings import Settings  # noqa: E402
from mindinsight.services.graphs import graph_of  # noqa: E402

API = "/v1/mindinsight/datavisual/graphs"
SEARCHES = ("conv", "bn", "relu", "add", "a")
REPEATS = 5


def timed(client, path: str, **params) -> float:
    start = time.perf_counter()
    response = client.get(f"{API}/{path}", query_string=params)
    elapsed = time.perf_counter() - start
    assert response.status_code == 200, response.get_json()
    return elapsed * 1000


def figures(job_dir: Path, mode: str = "normal") -> dict:
    base = Path(tempfile.mkdtemp(prefix="graph_bench_"))
    try:
        shutil.copytree(job_dir, base / "job")
        for path in (base / "job").iterdir():
            path.chmod(0o644)
        app = create_app(Settings(summary_base_dir=str(base), reload_interval=0).resolved(), start_loading=False)
        data_manager(app).load_all_now()
        client = app.test_client()
        train_id = "./job"
        first = timed(client, "nodes", train_id=train_id, mode=mode)
        graph = graph_of(data_manager(app), train_id, None, mode)
        top = [timed(client, "nodes", train_id=train_id, mode=mode) for _ in range(REPEATS)]
        scopes = [scope for scope in graph.children if scope]
        cold = [timed(client, "nodes", train_id=train_id, mode=mode, name=scope) for scope in scopes]
        warm = [min(timed(client, "nodes", train_id=train_id, mode=mode, name=s) for _ in range(3)) for s in scopes]
        searches = {
            pattern: max(timed(client, "nodes/names", train_id=train_id, mode=mode, search=pattern) for _ in range(3))
            for pattern in SEARCHES
        }
        every = timed(client, "nodes/all", train_id=train_id, mode=mode)
        return {
            "mode": mode,
            "nodes": len(graph.nodes),
            "scopes": len(scopes),
            "first_answer_ms": round(first, 1),
            "top_level_ms_median": round(statistics.median(top), 1),
            "top_level_ms_worst": round(max(top), 1),
            "children_first_ms_median": round(statistics.median(cold), 1),
            "children_first_ms_worst": round(max(cold), 1),
            "children_ms_median": round(statistics.median(warm), 1),
            "children_ms_worst": round(max(warm), 1),
            "search_ms_worst": round(max(searches.values()), 1),
            "search_ms": {pattern: round(ms, 1) for pattern, ms in searches.items()},
            "all_nodes_ms": round(every, 1),
        }
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for view in ("normal", "optimize"):
        print(json.dumps(figures(Path(sys.argv[1]), view)))
