"""Bad files under the base dir, on the real server: nothing blocks it, nothing outside the base
dir is served, nothing is read without a bound, every answer is JSON (and strict JSON).

Each job holds one bad thing beside a sound profiler output: a FIFO or a link to /dev/zero
named like a profiler CSV, a 4 GB sparse CSV without a newline, links out of the base dir (a
FRAMEWORK folder, a CSV, ``profiler_info_<n>.json``, an ``msadvisor`` folder), JSON nested
100,000 deep, an MSAdvisor value ``1e999``. The server's RSS is measured around each one.
"""

import concurrent.futures
import json
import os
import re
import shutil
import time
from pathlib import Path

import psutil
import pytest
import requests

from mindinsight.conf import limits
from mindinsight.scripts.processes import server_processes
from tests.helpers.fixtures import copy_job
from tests.helpers.server import running_server

PROFILE = "vm_23733_20261123203458746_ascend_ms"
SECRET = "OUTSIDE_THE_BASE_DIR"  # in every file outside; must never appear in an answer
PROMPT_SECONDS = 10  # an answer slower than this counts as blocked
# RSS the worker may gain while it refuses a bad file (it holds nothing of it).
MAX_RSS_GROWTH = 64 * 1024 * 1024
REPORT = []  # (case, RSS before, RSS after, peak), printed at the end with -s


def strict_json(response: requests.Response):
    """The body parsed as strict JSON: NaN / Infinity are refused."""

    def refuse(constant):
        raise AssertionError(f"not JSON: {constant} in {response.text[:200]}")

    return json.loads(response.text, parse_constant=refuse)


def framework(base: Path, job: str) -> Path:
    return base / job / PROFILE / "FRAMEWORK"


def write_outside(outside: Path) -> None:
    """What lies outside the base dir: a profiler FRAMEWORK folder, meta info, MSAdvisor files."""
    copy_job("h_profiler_resnet", outside / "copy")
    shutil.move(outside / "copy" / PROFILE / "FRAMEWORK", outside / "FRAMEWORK")
    for csv_file in (outside / "FRAMEWORK").glob("*.csv"):
        csv_file.write_text(csv_file.read_text().replace("Conv2D", SECRET))
    (outside / "profiler_info_0.json").write_text(json.dumps({"ms_version": f"2.0-{SECRET}", "context_mode": SECRET}))
    recommendation = outside / "msadvisor" / "device_0" / "recommendation"
    recommendation.mkdir(parents=True)
    (recommendation / "r.json").write_text(json.dumps({"model": SECRET}))


def write_bad_jobs(base: Path, outside: Path) -> None:
    for job in (
        "fifo",
        "zero",
        "sparse",
        "long_line",
        "link_framework",
        "link_csv",
        "link_info",
        "link_msadvisor",
        "deep",
        "infinite",
    ):
        copy_job("h_profiler_resnet", base / job)
    os.unlink(framework(base, "fifo") / "cpu_op_detail_info_0.csv")
    os.mkfifo(framework(base, "fifo") / "cpu_op_detail_info_0.csv")
    os.mkfifo(base / "fifo" / PROFILE / "profiler_info_0.json")
    os.mkfifo(base / "fifo" / "events.summary.1")  # named like a summary file and a graph file
    os.mkfifo(base / "fifo" / "graph.pb")
    os.unlink(framework(base, "zero") / "cpu_op_detail_info_0.csv")
    os.symlink("/dev/zero", framework(base, "zero") / "cpu_op_detail_info_0.csv")
    with open(framework(base, "sparse") / "cpu_op_detail_info_0.csv", "wb") as sparse:
        sparse.truncate(4 * 1024**3)  # 4 GB of zeros, no newline, a few KB on disk
    with open(framework(base, "long_line") / "cpu_op_detail_info_0.csv", "w") as long_line:
        long_line.write("op_side," + "x" * (100 * 1024 * 1024))  # 100 MB, within the byte bound, no newline
    shutil.rmtree(framework(base, "link_framework"))
    os.symlink(outside / "FRAMEWORK", framework(base, "link_framework"))
    os.unlink(framework(base, "link_csv") / "cpu_op_detail_info_0.csv")
    os.symlink(
        outside / "FRAMEWORK" / "cpu_op_detail_info_0.csv", framework(base, "link_csv") / "cpu_op_detail_info_0.csv"
    )
    os.symlink(outside / "profiler_info_0.json", base / "link_info" / PROFILE / "profiler_info_0.json")
    os.symlink(outside / "msadvisor", base / "link_msadvisor" / PROFILE / "msadvisor")
    depth = 100_000
    (base / "deep" / PROFILE / "profiler_info_0.json").write_text("[" * depth + "]" * depth)
    deep_advice = base / "deep" / PROFILE / "msadvisor" / "device_0" / "recommendation"
    deep_advice.mkdir(parents=True)
    (deep_advice / "r.json").write_text('{"model": ' + "[" * 2000 + "]" * 2000 + "}")
    advice = base / "infinite" / PROFILE / "msadvisor" / "device_0" / "recommendation"
    advice.mkdir(parents=True)
    (advice / "r.json").write_text('{"model": {"score": 1e999, "low": -1e999, "nan": NaN, "ok": 0.5}}')


@pytest.fixture(scope="module")
def bad_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad_files")
    base, outside = root / "base", root / "outside"
    base.mkdir()
    write_outside(outside)
    write_bad_jobs(base, outside)
    with running_server(base, root / "workspace", reload_interval=1) as server:
        yield server
    for case, before, after, peak in REPORT:
        print(f"RSS {case}: {before / 2**20:.0f} -> {after / 2**20:.0f} MiB (worker peak {peak / 2**20:.0f} MiB)")


def server_rss(server) -> int:
    """RSS of every server process together (gunicorn master and worker)."""
    return sum(proc.memory_info().rss for proc in server_processes(server.port))


def worker_peak(server) -> int:
    processes = server_processes(server.port)
    pids = {proc.pid for proc in processes}
    worker = next(proc for proc in processes if proc.ppid() in pids)
    for line in Path(f"/proc/{worker.pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


def measured(server, case: str, request):
    """``request()``'s response, with the server's RSS recorded around it (and bounded)."""
    before, peak_before = server_rss(server), worker_peak(server)
    response = request()
    after, peak = server_rss(server), worker_peak(server)
    REPORT.append((case, before, after, peak))
    assert after - before < MAX_RSS_GROWTH and peak - peak_before < MAX_RSS_GROWTH, (case, before, after, peak)
    return response


def search(server, job: str, view: str = "cpu_op_info", profile: str = PROFILE) -> requests.Response:
    return requests.post(
        server.api + "/profile/ops/search",
        params={"train_id": f"./{job}", "profile": profile},
        json={"op_type": view, "device_id": "0"},
        timeout=PROMPT_SECONDS,
    )


def get(server, path: str, job: str, **params) -> requests.Response:
    params = {"train_id": f"./{job}", "profile": PROFILE, **params}
    return requests.get(server.api + path, params=params, timeout=PROMPT_SECONDS)


def refused(response: requests.Response, code: str) -> dict:
    assert 400 <= response.status_code < 500 and response.headers["Content-Type"] == "application/json"
    body = strict_json(response)
    assert body["error_code"] == code, body
    return body


def test_a_fifo_never_blocks_the_server(bad_server):
    pool_threads = limits.SERVING_POOL_THREADS

    def all_at_once():
        with concurrent.futures.ThreadPoolExecutor(pool_threads + 3) as pool:
            return list(pool.map(lambda _: search(bad_server, "fifo"), range(pool_threads + 3)))

    answers = measured(bad_server, f"FIFO CSV, {pool_threads + 3} requests at once", all_at_once)
    for answer in answers:
        assert "not a regular file" in refused(answer, "50546085")["error_msg"]
    refused(get(bad_server, "/profile/devices", "fifo"), "50546085")
    # profile_info looks only at files: the FIFO is none, so the output has no meta info
    assert strict_json(get(bad_server, "/profile/profile_info", "fifo")) == {}
    # the other view of the same output still answers, as do the pooled routes and static files
    assert strict_json(search(bad_server, "fifo", view="cpu_op_type"))["size"] == 18
    started = time.monotonic()
    index = requests.get(bad_server.url + "/", timeout=PROMPT_SECONDS)
    script = re.search(r'src="[^"]*/(static/[^"]+\.js)"', index.text).group(1)
    assert requests.get(f"{bad_server.url}/{script}", timeout=PROMPT_SECONDS).status_code == 200
    lineage = requests.post(bad_server.api + "/lineagemgr/lineages", json={}, timeout=PROMPT_SECONDS)
    assert index.status_code == 200 and lineage.status_code == 200
    jobs = requests.get(bad_server.api + "/datavisual/train-jobs", params={"limit": 99}, timeout=PROMPT_SECONDS)
    fifo_job = next(job for job in strict_json(jobs)["train_jobs"] if job["train_id"] == "./fifo")
    assert fifo_job["summary_files"] == 0 and fifo_job["graph_files"] == 0  # the FIFOs are no files
    assert time.monotonic() - started < PROMPT_SECONDS


def test_a_link_to_dev_zero_is_refused(bad_server):
    answer = measured(bad_server, "symlink to /dev/zero", lambda: search(bad_server, "zero"))
    refused(answer, "50546081")


def test_a_4_gb_csv_without_newline_is_refused_at_once(bad_server):
    started = time.monotonic()
    answer = measured(bad_server, "4 GB sparse CSV, no newline", lambda: search(bad_server, "sparse"))
    body = refused(answer, "50546086")
    assert str(4 * 1024**3) in body["error_msg"] and time.monotonic() - started < 5
    assert strict_json(search(bad_server, "sparse", view="cpu_op_type"))["size"] == 18


def test_a_100_mb_line_is_refused_before_it_is_read_whole(bad_server):
    answer = measured(bad_server, "100 MB CSV, no newline", lambda: search(bad_server, "long_line"))
    assert "a line longer than" in refused(answer, "50546086")["error_msg"]


def test_nothing_outside_the_base_dir_is_served(bad_server):
    answers = {
        "FRAMEWORK link": measured(bad_server, "symlinked FRAMEWORK", lambda: search(bad_server, "link_framework")),
        "CSV link": measured(bad_server, "symlinked CSV", lambda: search(bad_server, "link_csv")),
        "info link": measured(
            bad_server, "symlinked profiler_info", lambda: get(bad_server, "/profile/profile_info", "link_info")
        ),
        "devices of info link": get(bad_server, "/profile/devices", "link_info"),
        "msadvisor link": measured(
            bad_server, "symlinked msadvisor", lambda: get(bad_server, "/profile/summary/propose", "link_msadvisor")
        ),
    }
    for job in ("link_framework", "link_csv", "link_info", "link_msadvisor"):
        answers[f"{job} types"] = search(bad_server, job, view="cpu_op_type")
        answers[f"{job} devices"] = get(bad_server, "/profile/devices", job)
        answers[f"{job} info"] = get(bad_server, "/profile/profile_info", job)
        answers[f"{job} propose"] = get(bad_server, "/profile/summary/propose", job, device_id="0")
        answers[f"{job} cluster"] = bad_server.get("/profile/summary/cluster-propose", params={"train_id": f"./{job}"})
    answers["train-jobs"] = bad_server.get("/datavisual/train-jobs", params={"limit": 99})
    for name, answer in answers.items():
        assert SECRET not in answer.text, name
        assert answer.status_code < 500, name
    linked = strict_json(answers["FRAMEWORK link"])  # the outside folder is not the data folder
    assert linked["object"] == [] and linked["size"] == 0
    assert "outside" in refused(answers["CSV link"], "50546081")["error_msg"]
    refused(answers["info link"], "50546081")
    refused(answers["devices of info link"], "50546081")
    assert strict_json(answers["msadvisor link"]) == {
        "common-proposer_type_label": None,
        "common-profiler_tutorial": None,
    }  # the outside recommendation is not one
    assert strict_json(answers["link_csv types"])["size"] == 18  # the sound file beside it is read


def test_deep_nesting_is_refused(bad_server):
    info = measured(
        bad_server, "profiler_info nested 100,000 deep", lambda: get(bad_server, "/profile/profile_info", "deep")
    )
    assert "nested deeper than" in refused(info, "50546086")["error_msg"]
    refused(get(bad_server, "/profile/devices", "deep"), "50546086")
    advice = measured(
        bad_server,
        "msadvisor nested 2,000 deep",
        lambda: get(bad_server, "/profile/summary/propose", "deep", device_id="0"),
    )
    refused(advice, "50546086")


def test_numbers_beyond_float_are_served_as_null(bad_server):
    answer = measured(
        bad_server, "msadvisor 1e999", lambda: get(bad_server, "/profile/summary/propose", "infinite", device_id="0")
    )
    assert answer.status_code == 200
    assert strict_json(answer)["msadvisor-proposer"] == {"score": None, "low": None, "nan": None, "ok": 0.5}


def test_a_touched_csv_replaces_its_parsed_rows(tmp_path):
    """The parsed-rows memo keeps one version per file: touching a large CSV three times
    leaves the server's RSS where one parse put it (the original kept every version)."""
    rows = 300_000
    job = copy_job("h_profiler_resnet", tmp_path / "base" / "large")
    detail = job / PROFILE / "FRAMEWORK" / "cpu_op_detail_info_0.csv"
    header = detail.read_text().splitlines()[0]
    with open(detail, "w") as file:
        file.write(header + "\n")
        file.writelines(
            f"Host,Conv2D,Conv2D-op{i},Default/Conv2D-op{i},3,0.2,0.07,0.0001,Default,1\n" for i in range(rows)
        )

    def first_page():
        body = {"op_type": "cpu_op_info", "device_id": "0", "group_condition": {"limit": 10, "offset": 0}}
        params = {"train_id": "./large", "profile": PROFILE}
        answer = requests.post(server.api + "/profile/ops/search", params=params, json=body, timeout=60)
        assert strict_json(answer)["size"] == rows

    with running_server(tmp_path / "base", tmp_path / "workspace", reload_interval=0) as server:
        idle = server_rss(server)
        first_page()
        one_version = server_rss(server)
        for touch in range(1, 4):
            os.utime(detail, (1_700_000_000 + touch, 1_700_000_000 + touch))
            first_page()
        touched = server_rss(server)
    print(
        f"RSS idle {idle / 2**20:.0f} MiB, one parse {one_version / 2**20:.0f}, after 3 touches {touched / 2**20:.0f}"
    )
    assert touched < one_version + (one_version - idle) // 2


def test_the_server_answers_after_every_bad_file(bad_server):
    index = requests.get(bad_server.url + "/", timeout=PROMPT_SECONDS)
    assert index.status_code == 200
    assert psutil.pid_exists(server_processes(bad_server.port)[0].pid)
