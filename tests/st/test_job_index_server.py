"""The persistent index (issue #23) on the real server, stopped and started on one workspace.

A restart answers every API as a cold start does on the same logs. That it answered from the
index, and did not just read the logs again, shows on a *witness*: a scalar job whose log is
changed in place after the index took it, keeping its size, inode and mtime. The index trusts
such a file, so a restarted server still serves the spike the log held; a server reading the log
again finds a record whose checksum no longer matches and loses the spike. Each test below ends
on that check, so each fails when the index is not used.
"""

import glob
import hashlib
import os
import random
import signal
import sqlite3
import stat
import struct
import threading
import time

import psutil
import pytest

from mindinsight.scripts.processes import server_processes
from mindinsight.summary.writer import SummaryWriter
from tests.helpers.fixtures import MULTI_RUNS, copy_job
from tests.helpers.server import running_server
from tests.st.conftest import all_cached, wait_for

FIXTURE_JOBS = ("a_lenet_collector", "b_summary_ops") + tuple(f"c_multi_runs/{run}" for run in MULTI_RUNS)
WITNESS, WITNESS_STEPS, SPIKE_STEP, SPIKE = "witness", 2_000, 1_234, 4242.0
BIG, BIG_TAGS, BIG_STEPS = "big", 10, 40_000


def value(step: int, tag: int) -> float:
    return ((step * 7 + tag * 13) % 1000) / 1000


def write_scalars(job, first: int, last: int, tags: int, spike_step: int | None = None, file_name=None) -> str:
    """Steps ``first..last`` of ``tags`` scalar tags with our writer (appending to ``file_name``)."""
    with SummaryWriter(job, file_name=file_name, timestamp=1_700_000_000) as writer:
        for step in range(first, last + 1):
            values = {f"t{tag}": value(step, tag) for tag in range(tags)}
            if step == spike_step:
                values["t0"] = SPIKE
            writer.add_values(step, values, wall_time=1_700_000_000.0 + step)
    return writer.path


def write_witness(base) -> str:
    return write_scalars(base / WITNESS, 1, WITNESS_STEPS, 3, spike_step=SPIKE_STEP)


def tamper_keeping_identity(path) -> None:
    """Overwrite the spike's bytes in place; size, inode and mtime stay what they were."""
    before = os.stat(path)
    data = open(path, "rb").read()
    spike = struct.pack("<f", SPIKE)
    assert data.count(spike) == 1
    mode = stat.S_IMODE(before.st_mode)
    os.chmod(path, mode | stat.S_IWUSR)
    with open(path, "r+b") as handle:
        handle.seek(data.index(spike))
        handle.write(struct.pack("<f", 0.5))
    os.chmod(path, mode)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_ino, after.st_mtime_ns) == (before.st_size, before.st_ino, before.st_mtime_ns)


def spike_served(server, train_id: str = f"./{WITNESS}") -> bool:
    """Whether the witness's spike is among the points the server holds (max of all buckets)."""
    body = server.get("/datavisual/scalar/buckets", params={"train_id": train_id, "tag": "t0/scalar", "width": 10})
    assert body.status_code == 200, body.text
    return max(bucket["max"]["value"] for bucket in body.json()["buckets"] if bucket["max"]) == SPIKE


def index_file(workspace) -> str:
    found = glob.glob(os.path.join(workspace, "index", "*.sqlite"))
    assert len(found) == 1, found
    return found[0]


def indexed(workspace) -> dict:
    """``train_id -> written`` of the index's entries ({} while there is none)."""
    try:
        path = index_file(workspace)
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
            return dict(connection.execute("SELECT train_id, written FROM jobs").fetchall())
    except (AssertionError, sqlite3.Error):
        return {}


def wait_indexed(workspace, *names: str, after: float = 0.0) -> None:
    """Until the index holds an entry of every job in ``names`` written after ``after``."""
    wait_for(lambda: all(indexed(workspace).get(f"./{name}", 0.0) > after for name in names), timeout=60)


def drop_times(value):
    """The answer without its clock readings (a restart lists jobs at another time)."""
    if isinstance(value, dict):
        return {k: drop_times(v) for k, v in value.items() if "time" not in k}
    if isinstance(value, list):
        return [drop_times(v) for v in value]
    return value


def answers(server) -> dict:
    """Every answer the dashboard's pages ask for, of every job and tag."""

    def got(path, **params):
        response = server.get(path, params=params)
        return response.status_code, response.json()

    out = {}
    status, jobs = got("/datavisual/train-jobs", limit=999)
    out["train-jobs"] = (status, drop_times(jobs))
    first_tags = {}
    for job in jobs["train_jobs"]:
        train_id = job["train_id"]
        out["plugins", train_id] = got("/datavisual/plugins", train_id=train_id)
        plugins = out["plugins", train_id][1]["plugins"]
        for tag in plugins.get("scalar", []):
            first_tags.setdefault(train_id, tag)
            out["scalar", train_id, tag] = got("/datavisual/scalar/metadata", train_id=train_id, tag=tag)
            out["buckets", train_id, tag] = got("/datavisual/scalar/buckets", train_id=train_id, tag=tag, width=50)
        for tag in plugins.get("image", []):
            status, images = out["image", train_id, tag] = got("/datavisual/image/metadata", train_id=train_id, tag=tag)
            picture = server.get(
                "/datavisual/image/single-image",
                params={"train_id": train_id, "tag": tag, "step": images["metadatas"][-1]["step"]},
            )
            out["single-image", train_id, tag] = (picture.status_code, hashlib.sha256(picture.content).hexdigest())
        for tag in plugins.get("histogram", []):
            out["histogram", train_id, tag] = got("/datavisual/histograms", train_id=train_id, tag=tag)
    out["scalars"] = got("/datavisual/scalars", train_id=list(first_tags), tag=sorted(set(first_tags.values())))
    lineage = server.post("/lineagemgr/lineages", json={})
    out["lineage"] = (lineage.status_code, drop_times(lineage.json()))
    assert all(answer[0] == 200 for answer in out.values()), [k for k, v in out.items() if v[0] != 200]
    return out


def serve_all(base, workspace, **options) -> dict:
    with running_server(base, workspace, reload_interval=1, **options) as server:
        wait_for(lambda: all_cached(server), timeout=120)
        return answers(server)


@pytest.fixture()
def base(tmp_path):
    """The fixture jobs (images, histograms, graphs, lineage), a big scalar job and the witness."""
    base = tmp_path / "base"
    for name in FIXTURE_JOBS:
        copy_job(name, base / name.split("/")[-1])
    write_scalars(base / BIG, 1, BIG_STEPS, BIG_TAGS)
    write_witness(base)
    return base


def test_a_restart_answers_as_a_cold_start(base, tmp_path):
    workspace = tmp_path / "ws"
    with running_server(base, workspace, reload_interval=1) as server:
        wait_for(lambda: all_cached(server), timeout=120)
        cold = answers(server)
        assert spike_served(server)
        wait_indexed(workspace, BIG, WITNESS)
    assert cold["scalar", f"./{BIG}", "t3/scalar"][1]["metadatas"][-1]["step"] == BIG_STEPS
    assert serve_all(base, workspace) == cold

    tamper_keeping_identity(base / WITNESS / os.listdir(base / WITNESS)[0])
    with running_server(base, workspace, reload_interval=1) as server:
        wait_for(lambda: all_cached(server), timeout=120)
        assert answers(server) == cold  # the witness's spike included: it came from the index


def test_a_log_grown_while_stopped_shows_the_new_steps(base, tmp_path):
    workspace = tmp_path / "ws"
    serve_all(base, workspace)  # the index is written once a job is read
    wait_indexed(workspace, BIG, WITNESS)
    big_log = os.listdir(base / BIG)[0]
    write_scalars(base / BIG, BIG_STEPS + 1, BIG_STEPS + 500, BIG_TAGS, file_name=big_log)
    tamper_keeping_identity(base / WITNESS / os.listdir(base / WITNESS)[0])
    with running_server(base, workspace, reload_interval=1) as server:
        wait_for(lambda: all_cached(server), timeout=120)
        body = server.get("/datavisual/scalar/metadata", params={"train_id": f"./{BIG}", "tag": "t2/scalar"}).json()
        last = BIG_STEPS + 500
        assert (body["metadatas"][-1]["step"], body["metadatas"][-1]["value"]) == (last, pytest.approx(value(last, 2)))
        buckets = server.get(
            "/datavisual/scalar/buckets", params={"train_id": f"./{BIG}", "tag": "t2/scalar", "width": 10}
        ).json()
        assert (buckets["count"], buckets["end"]) == (BIG_STEPS + 500, BIG_STEPS + 500)
        assert spike_served(server)


def test_a_replaced_log_is_read_again(base, tmp_path):
    workspace = tmp_path / "ws"
    cold = serve_all(base, workspace)
    wait_indexed(workspace, BIG, WITNESS)
    big_log = base / BIG / os.listdir(base / BIG)[0]
    # Another log under the same name (a new inode), as a rerun writing the job again makes.
    replacement = write_scalars(tmp_path / "elsewhere", 1, 300, 2)
    os.replace(replacement, big_log)
    tamper_keeping_identity(base / WITNESS / os.listdir(base / WITNESS)[0])
    with running_server(base, workspace, reload_interval=1) as server:
        wait_for(lambda: all_cached(server), timeout=120)
        plugins = server.get("/datavisual/plugins", params={"train_id": f"./{BIG}"}).json()["plugins"]
        assert plugins["scalar"] == ["t0/scalar", "t1/scalar"]
        body = server.get("/datavisual/scalar/metadata", params={"train_id": f"./{BIG}", "tag": "t1/scalar"}).json()
        assert [(p["step"], p["value"]) for p in body["metadatas"]] == [
            (step, pytest.approx(value(step, 1))) for step in range(1, 301)
        ]
        served = answers(server)
        assert {k: v for k, v in served.items() if BIG not in str(k) and k not in ("train-jobs", "scalars")} == {
            k: v for k, v in cold.items() if BIG not in str(k) and k not in ("train-jobs", "scalars")
        }


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_corrupt_index_is_rebuilt(base, tmp_path, damage):
    workspace = tmp_path / "ws"
    cold = serve_all(base, workspace)
    wait_indexed(workspace, BIG, WITNESS)
    path = index_file(workspace)
    size = os.path.getsize(path)
    with open(path, "r+b") as handle:
        if damage == "garbage":
            handle.write(random.Random(7).randbytes(size))
        else:
            handle.truncate(size // 2)
    started = time.time()
    with running_server(base, workspace, reload_interval=1) as server:
        wait_for(lambda: all_cached(server), timeout=120)
        assert answers(server) == cold
        wait_indexed(workspace, BIG, WITNESS, after=started)  # built again from the logs
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    tamper_keeping_identity(base / WITNESS / os.listdir(base / WITNESS)[0])
    assert serve_all(base, workspace) == cold


def tree(base) -> dict:
    """Every path under ``base`` with its kind, size, mode and mtime."""
    found = {}
    for root, dirs, files in os.walk(base):
        for name in dirs + files:
            path = os.path.join(root, name)
            st = os.lstat(path)
            found[os.path.relpath(path, base)] = (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino)
    return found


def test_a_read_only_base_dir_is_indexed_and_never_written(base, tmp_path):
    workspace = tmp_path / "ws"
    for root, dirs, files in os.walk(base):
        for name in files:
            os.chmod(os.path.join(root, name), 0o444)
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o555)
    os.chmod(base, 0o555)
    before = tree(base)
    try:
        cold = serve_all(base, workspace, obey_file_modes=True)
        wait_indexed(workspace, BIG, WITNESS)
        tamper_keeping_identity(base / WITNESS / os.listdir(base / WITNESS)[0])
        assert serve_all(base, workspace, obey_file_modes=True) == cold
        assert tree(base) == before
    finally:
        for root, dirs, _files in os.walk(base):
            for name in dirs:
                os.chmod(os.path.join(root, name), 0o755)
        os.chmod(base, 0o755)


class GrowingLog(threading.Thread):
    """Appends steps of a scalar job while the test runs: the server keeps writing its entry."""

    def __init__(self, job, first_steps: int):
        super().__init__(daemon=True)
        self.job, self.halt = job, threading.Event()
        self.file = os.path.basename(write_scalars(job, 1, first_steps, 20))
        self.last = first_steps

    def run(self):
        while not self.halt.wait(0.2):
            write_scalars(self.job, self.last + 1, self.last + 200, 20, file_name=self.file)
            self.last += 200


def kill_9(port: int) -> None:
    """SIGKILL the server's every process at once: no shutdown code runs."""
    processes = server_processes(port)
    assert processes
    for process in processes:
        os.kill(process.pid, signal.SIGKILL)
    psutil.wait_procs(processes, timeout=10)


def test_a_server_killed_while_writing_the_index_restarts_on_a_valid_one(tmp_path):
    base, workspace = tmp_path / "base", tmp_path / "ws"
    write_witness(base)
    live = GrowingLog(base / "live", 50_000)  # 1 M values: each entry takes a while to write
    serve_all(base, workspace)
    wait_indexed(workspace, WITNESS, "live")
    tamper_keeping_identity(base / WITNESS / os.listdir(base / WITNESS)[0])
    live.start()
    rng = random.Random(23)
    mid_write = 0  # kills that found a transaction in the write-ahead log
    try:
        for _round in range(6):
            with running_server(base, workspace, reload_interval=1) as server:
                # Read again and grown, the job's entry is written as soon as it is cached.
                wait_for(lambda: all_cached(server), timeout=120)
                time.sleep(rng.uniform(0.0, 0.3))
                wal = index_file(workspace) + "-wal"
                mid_write += os.path.exists(wal) and os.path.getsize(wal) > 0
                kill_9(server.port)
                server.stopped = True
    finally:
        live.halt.set()
        live.join()
    with sqlite3.connect(index_file(workspace)) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with running_server(base, workspace, reload_interval=1) as server:
        wait_for(lambda: all_cached(server), timeout=120)
        body = server.get("/datavisual/scalar/buckets", params={"train_id": "./live", "tag": "t5/scalar", "width": 20})
        assert (body.json()["count"], body.json()["end"]) == (live.last, live.last)
        assert spike_served(server)  # the entry written before the kills is still trusted
    print(f"{mid_write} of 6 kills hit the index mid-write")


def indexed_lineage(workspace) -> set:
    """The train ids whose lineage the index keeps (empty while there is none)."""
    try:
        with sqlite3.connect(f"file:{index_file(workspace)}?mode=ro", uri=True) as connection:
            return {row[0] for row in connection.execute("SELECT train_id FROM lineage")}
    except (AssertionError, sqlite3.Error):
        return set()


def garble_keeping_identity(path) -> None:
    """Invert the bytes of the file's second half in place; size, inode and mtime stay."""
    before = os.stat(path)
    data = bytearray(open(path, "rb").read())
    half = len(data) // 2
    data[half:] = bytes(255 - byte for byte in data[half:])
    with open(path, "r+b") as handle:
        handle.write(data)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (os.stat(path).st_size, os.stat(path).st_ino) == (before.st_size, before.st_ino)


def lineage_of(server) -> dict:
    answer = server.post("/lineagemgr/lineages", json={})
    assert answer.status_code == 200, answer.text
    return {item["summary_dir"]: drop_times(item) for item in answer.json()["object"]}


def test_a_restart_takes_the_lineage_from_the_index(base, tmp_path):
    """Lineage files unchanged since the index kept their lineage are not parsed again: garbled
    in place (same size, inode and mtime), the restarted server still answers their lineage."""
    workspace = tmp_path / "ws"
    with running_server(base, workspace, reload_interval=1) as server:
        cold = lineage_of(server)
        assert "./a_lenet_collector" in cold
        wait_for(lambda: set(cold) <= indexed_lineage(workspace), timeout=60)
    for name in os.listdir(base / "a_lenet_collector"):
        if name.endswith("_lineage"):
            garble_keeping_identity(base / "a_lenet_collector" / name)
    with running_server(base, workspace, reload_interval=1) as server:
        assert lineage_of(server) == cold
    # The witness works: the same logs read without the index do not give that lineage.
    with running_server(base, tmp_path / "fresh", reload_interval=1) as server:
        assert lineage_of(server).get("./a_lenet_collector") != cold["./a_lenet_collector"]


KINDS_JOBS = ("b_summary_ops", "f_save_graphs")  # images, histograms, tensors, a graph event; .pb graphs


def invert_keeping_identity(path) -> None:
    """Invert every byte of the file in place; size, inode and mtime stay (no record survives)."""
    before = os.stat(path)
    data = open(path, "rb").read()
    with open(path, "r+b") as handle:
        handle.write(bytes(255 - byte for byte in data))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (os.stat(path).st_size, os.stat(path).st_ino) == (before.st_size, before.st_ino)


def kinds_answers(server) -> dict:
    """What the per-kind pages answer of every job: image bytes, histograms, tensor values, graphs."""

    def got(path, **params):
        response = server.get(path, params=params)
        assert response.status_code == 200, (path, params, response.text)
        return response.json()

    out = {}
    for job in KINDS_JOBS:
        train_id = f"./{job}"
        plugins = got("/datavisual/plugins", train_id=train_id)["plugins"]
        out[job, "plugins"] = plugins
        for tag in plugins.get("image", []):
            for row in got("/datavisual/image/metadata", train_id=train_id, tag=tag)["metadatas"]:
                image = server.get(
                    "/datavisual/image/single-image", params={"train_id": train_id, "tag": tag, "step": row["step"]}
                )
                out[job, tag, row["step"]] = (image.status_code, hashlib.sha256(image.content).hexdigest())
        for tag in plugins.get("histogram", []):
            out[job, tag] = got("/datavisual/histograms", train_id=train_id, tag=tag)
        for tag in plugins.get("tensor", []):
            for detail in ("stats", "histogram"):
                out[job, tag, detail] = got("/datavisual/tensors", train_id=train_id, tag=tag, detail=detail)
        for tag in plugins.get("graph", []):
            out[job, tag, "nodes"] = got("/datavisual/graphs/nodes", train_id=train_id, tag=tag)
            out[job, tag, "names"] = got("/datavisual/graphs/nodes/names", train_id=train_id, tag=tag, limit=1000)
    out["b_summary_ops", "data"] = got(
        "/datavisual/tensors",
        train_id="./b_summary_ops",
        tag="conv1_feature_map/tensor",
        detail="data",
        step=out["b_summary_ops", "conv1_feature_map/tensor", "stats"]["tensors"][0]["values"][-1]["step"],
        dims="[0,:,:]",
    )
    return out


def test_a_restart_takes_images_histograms_tensors_and_graphs_from_the_index(tmp_path):
    """Jobs of every kind are kept by the index: their logs inverted in place (same size, inode
    and mtime), the restarted server answers the same image bytes, histograms, tensor values and
    graphs as before; the same logs read without the index hold none of them."""
    base, workspace = tmp_path / "base", tmp_path / "ws"
    for name in KINDS_JOBS:
        copy_job(name, base / name)
    with running_server(base, workspace, reload_interval=1) as server:
        wait_for(lambda: all_cached(server), timeout=120)
        cold = kinds_answers(server)
        assert {"image", "histogram", "tensor", "graph"} <= {
            k for k, v in cold["b_summary_ops", "plugins"].items() if v
        }
        assert len(cold["f_save_graphs", "plugins"]["graph"]) == 4
        wait_indexed(workspace, *KINDS_JOBS)
    for name in KINDS_JOBS:
        for log in os.listdir(base / name):
            invert_keeping_identity(base / name / log)
    with running_server(base, workspace, reload_interval=1) as server:
        wait_for(lambda: all_cached(server), timeout=120)
        assert kinds_answers(server) == cold
    with running_server(base, tmp_path / "fresh", reload_interval=1) as server:
        wait_for(lambda: all_cached(server), timeout=120)
        for job in KINDS_JOBS:
            plugins = server.get("/datavisual/plugins", params={"train_id": f"./{job}"}).json()["plugins"]
            assert not any(plugins.values()), plugins
