"""Lineage query figures: 999 train jobs, each with a ``_lineage`` file, in-process.

The jobs are written with our ``SummaryWriter`` (suffix ``_lineage``, ``LineageEvent``
messages: train lineage, evaluation lineage with metrics, user-defined info, a dataset graph
of one of 5 shapes) and cached in the data dir. Measured through the app's own code (Flask
test client, no HTTP): the first query (lists and parses every job), then a filtered, sorted,
paged ``POST lineagemgr/lineages`` repeated (median and p95), target <= 300 ms;
``optimizer/targets/search`` over all jobs once; and the first query again in a new app on the
same workspace (a restart: the lineage kept in the persistent index, nothing parsed again).
"""

import json
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from mindinsight.format.proto import mindinsight_lineage_pb2 as lineage_pb  # noqa: E402
from mindinsight.summary import SummaryWriter  # noqa: E402

JOBS = 999
QUERY = {
    "optimizer": {"in": ["Momentum", "Adam"]},
    "batch_size": {"ge": 32},
    "metric/accuracy": {"gt": 0.5},
    "sorted_name": "metric/accuracy",
    "sorted_type": "descending",
    "limit": 50,
    "offset": 1,
}
LINEAGES = "/v1/mindinsight/lineagemgr/lineages"
TARGETS = "/v1/mindinsight/optimizer/targets/search"
OPTIMIZERS = ("Momentum", "Adam", "SGD")


def _dataset_graph(shape: int) -> lineage_pb.DatasetGraph:
    graph = lineage_pb.DatasetGraph()
    graph.parameter.mapStr["op_type"] = "Batch"
    graph.parameter.mapInt["batch_size"] = 32
    node = graph
    for depth in range(3 + shape):
        child = node.children.add()
        child.parameter.mapStr["op_type"] = "Map" if depth else "Shuffle"
        child.parameter.mapInt["num_parallel_workers"] = 2
        operation = child.operations.add()
        operation.operationParam.mapStr["tensor_op_name"] = f"Op{depth}"
        node = child
    node.parameter.mapStr["op_type"] = "MnistDataset"
    node.sampler.operationParam.mapStr["sampler_name"] = "SequentialSampler"
    return graph


def write_job(job_dir: str, index: int) -> None:
    """One job's ``_lineage`` file: train, evaluation, user-defined info and dataset graph."""
    writer = SummaryWriter(job_dir, timestamp=1_700_000_000 + index, suffix="_lineage")
    train = lineage_pb.LineageEvent(wall_time=time.time())
    hyper = train.train_lineage.hyper_parameters
    hyper.optimizer, hyper.learning_rate = OPTIMIZERS[index % 3], 0.001 * (1 + index % 10)
    hyper.loss_function, hyper.epoch, hyper.batch_size, hyper.device_num = (
        "SoftmaxCrossEntropy",
        5,
        16 << (index % 3),
        1,
    )
    train.train_lineage.train_dataset.train_dataset_path = "/data/train"
    train.train_lineage.train_dataset.train_dataset_size = 60000
    train.train_lineage.algorithm.network, train.train_lineage.algorithm.loss = "LeNet5", 1.0 / (1 + index)
    train.train_lineage.model.size = 400000 + index
    writer.write_event(train)
    evaluation = lineage_pb.LineageEvent(wall_time=time.time())
    metric = {"accuracy": 0.4 + 0.5 * ((index * 37) % 100) / 100, "loss": 0.1 + (index % 7) / 10}
    evaluation.evaluation_lineage.metric = json.dumps(metric)
    evaluation.evaluation_lineage.valid_dataset.valid_dataset_path = "/data/test"
    evaluation.evaluation_lineage.valid_dataset.valid_dataset_size = 10000
    writer.write_event(evaluation)
    info = lineage_pb.LineageEvent(wall_time=time.time())
    info.user_defined_info.map_str["owner"] = f"team{index % 4}"
    info.user_defined_info.map_int32["seed"] = index
    writer.write_event(info)
    graph = lineage_pb.LineageEvent(wall_time=time.time())
    graph.dataset_graph.CopyFrom(_dataset_graph(index % 5))
    writer.write_event(graph)
    writer.close()


def lineage_base(data_dir: str, jobs: int = JOBS) -> str:
    """The base dir of ``jobs`` lineage jobs (written once, then reused)."""
    base = os.path.join(data_dir, f"lineage_{jobs}")
    done = os.path.join(base, ".complete")
    if not os.path.exists(done):
        for index in range(jobs):
            write_job(os.path.join(base, f"job_{index:04d}"), index)
        open(done, "w").close()
    return base


def run(data_dir: str, repeats: int = 30) -> list:
    """Rows ``(figure, measured, target, met)`` of the lineage figures."""
    from mindinsight.backend.application import create_app
    from mindinsight.backend.context import data_manager
    from mindinsight.conf.settings import Settings

    base = lineage_base(data_dir)
    settings = Settings(summary_base_dir=base, workspace=tempfile.mkdtemp(prefix="mi-bench-ws-"), reload_interval=0)

    def first_query():
        app = create_app(settings.resolved(), start_loading=False)
        data_manager(app).refresh_briefs()
        client = app.test_client()
        started = time.perf_counter()
        first = client.post(LINEAGES, json={})
        took = time.perf_counter() - started
        assert first.status_code == 200 and first.get_json()["count"] == JOBS, first.get_data(as_text=True)[:300]
        return app, client, took

    app, client, first_s = first_query()
    assert data_manager(app).index.wait_written(timeout=120)
    answer_before = client.post(LINEAGES, json=QUERY).get_json()
    restarted, restarted_client, restart_s = first_query()
    assert restarted_client.post(LINEAGES, json=QUERY).get_json() == answer_before
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        answer = client.post(LINEAGES, json=QUERY)
        times.append(time.perf_counter() - started)
        assert answer.status_code == 200
    matched = answer.get_json()["count"]
    started = time.perf_counter()
    assert client.post(TARGETS, json={}).status_code == 200
    targets_s = time.perf_counter() - started
    times.sort()
    median_ms, p95_ms = statistics.median(times) * 1000, times[int(0.95 * (len(times) - 1))] * 1000
    print(
        f"  lineage: first query {first_s:.2f} s, after a restart {restart_s:.2f} s, "
        f"filtered+sorted {median_ms:.1f} ms median",
        flush=True,
    )
    return [
        ("lineage: first query, 999 jobs", f"{first_s:.2f} s (lists and parses every _lineage file)", "-", None),
        ("lineage: first query after a restart, 999 jobs", f"{restart_s:.2f} s (lineage from the index)", "-", None),
        (
            "lineage: filtered, sorted query, 999 jobs",
            f"{median_ms:.1f} ms median, {p95_ms:.1f} ms p95 of {repeats} ({matched} match, page of 50)",
            "<= 300 ms",
            p95_ms <= 300,
        ),
        ("optimizer/targets/search, 999 jobs", f"{targets_s * 1000:.0f} ms", "-", None),
    ]


if __name__ == "__main__":
    for row in run(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, ".data")):
        print(row)
