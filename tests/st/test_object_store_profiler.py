"""Profiler output on an object store: the real server with ``--summary-base-dir s3://...`` on a
real S3 protocol server (moto, on loopback) answers every profiler route as it does for the
same files in a local base dir.

The base dir holds the three MindSpore 2.10 profiler fixtures and two jobs made from them that
reach the other readers: per-device meta files and an MSAdvisor recommendation (in the
original's ``profiler/`` layout and in a ``FRAMEWORK`` folder), and a cluster analysis file.
Paths in error messages differ only by the base dir, which is replaced before comparing.
"""

import json
import os
import shutil

import pytest

from tests.helpers.fixtures import FIXTURES, copy_job
from tests.helpers.s3_server import running_s3_server
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

BUCKET = "profiler-logs"
PREFIX = "team/runs"
FIXTURE_JOBS = ("e_profiler_legacy", "e_profiler_new", "h_profiler_resnet")
RESNET_PROFILE = "vm_23733_20261123203458746_ascend_ms"
NEW_PROFILE = "vm_1385_20261122104510257_ascend_ms"
JOBS = (*FIXTURE_JOBS, "orig_meta", "new_meta", "orig_cluster")
# What a train-jobs entry says that depends on when its files were written (or uploaded).
TIME_FIELDS = ("create_time", "update_time")


def _build_base(base):
    for name in FIXTURE_JOBS:
        copy_job(name, base / name)
    resnet_framework = FIXTURES / "h_profiler_resnet" / RESNET_PROFILE / "FRAMEWORK"
    # The original's layout: files directly in profiler/, meta info for two devices, MSAdvisor for one.
    profiler = base / "orig_meta" / "profiler"
    advice = profiler / "msadvisor" / "device_1" / "recommendation"
    advice.mkdir(parents=True)
    shutil.copy(resnet_framework / "cpu_op_type_info_0.csv", profiler)
    shutil.copy(resnet_framework / "cpu_op_detail_info_0.csv", profiler)
    (profiler / "profiler_info_0.json").write_text('{"ms_version": "2.3.1", "context_mode": "graph"}')
    (profiler / "profiler_info_1.json").write_text('{"context_mode": "graph"}')
    (advice / "result.json").write_text('{"model": [{"name": "AICPUModel", "score": 3}], "extra": 1}')
    (advice / "notes.txt").write_text("not a recommendation")
    # MindSpore 2.x's layout with meta info and MSAdvisor in its FRAMEWORK folder, dynamic shapes.
    framework = copy_job("e_profiler_new", base / "new_meta") / NEW_PROFILE / "FRAMEWORK"
    (framework / "profiler_info_0.json").write_text('{"ms_version": "1.10.1"}')
    (framework / "dynamic_shape_info_0.json").write_text("{}")
    (framework / "msadvisor" / "device_0" / "recommendation").mkdir(parents=True)
    (framework / "msadvisor" / "device_0" / "recommendation" / "r.json").write_text('{"model": [{"name": "m"}]}')
    cluster = base / "orig_cluster" / "profiler"
    cluster.mkdir(parents=True)
    shutil.copy(resnet_framework / "cpu_op_type_info_0.csv", cluster)
    (cluster / "ascend_cluster_analyse_data-parallel_1_8_0.csv").write_text("step,time\n")


def _jobs_listed(server) -> dict:
    """The train-jobs entries by id, once the server's first scan is done."""

    def loaded():
        body = server.get("/datavisual/train-jobs", params={"limit": 99}).json()
        return body if body["load_status"] == "loaded" else None

    return {job["train_id"]: job for job in wait_for(loaded)["train_jobs"]}


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """``(local server, store server, local base dir, store URL)`` over the same files."""
    base = tmp_path_factory.mktemp("profiler_base") / "runs"
    base.mkdir()
    _build_base(base)
    url = f"s3://{BUCKET}/{PREFIX}"
    with running_s3_server(tmp_path_factory.mktemp("moto")) as s3:
        s3.create_bucket(BUCKET)
        assert len(s3.upload_tree(base, BUCKET, PREFIX)) > 10
        with (
            running_server(base, tmp_path_factory.mktemp("local_ws"), reload_interval=0) as local,
            running_server(url, tmp_path_factory.mktemp("store_ws"), reload_interval=0, env=s3.env()) as remote,
        ):
            yield local, remote, os.path.realpath(base), url


def _requests(jobs: dict) -> list[tuple[str, str, dict, dict | None]]:
    """``(method, route, query, body)`` of every profiler route for every job, bad names included."""
    calls = []
    search = {"sort_condition": {"name": "op_type", "type": "ascending"}, "group_condition": {"limit": 5, "offset": 1}}
    for train_id, job in sorted(jobs.items()):
        query = {"train_id": train_id, "profile": job["profiler_dir"]}
        calls += [
            ("get", "/profile/devices", query, None),
            ("get", "/profile/profile_info", query, None),
            ("get", "/profile/summary/propose", query, None),
            ("get", "/profile/summary/propose", {**query, "device_id": "1"}, None),
            ("get", "/profile/summary/cluster-propose", {"train_id": train_id}, None),
            ("post", "/profile/ops/search", query, {"op_type": "cpu_op_type", "device_id": "0"}),
            ("post", "/profile/ops/search", query, {"op_type": "cpu_op_info", "device_id": "0", **search}),
            (
                "post",
                "/profile/ops/search",
                query,
                {"op_type": "cpu_op_info", "filter_condition": {"op_type": {"partial_match_str_in": ["Conv"]}}},
            ),
            ("post", "/profile/ops/search", query, {"op_type": "gpu_op_type", "device_id": "0"}),
            ("get", "/profile/devices", {"train_id": train_id, "profile": "profiler_gone"}, None),
            ("get", "/profile/devices", {"train_id": train_id, "profile": ".."}, None),
        ]
    calls += [
        ("get", "/profile/devices", {"train_id": "./no_such_job", "profile": RESNET_PROFILE}, None),
        ("get", "/profile/summary/cluster-propose", {"train_id": "../outside"}, None),
        ("get", "/profile/summary/cluster-propose", {"train_id": "./no_such_job"}, None),
    ]
    return calls


def _answer(server, base: str, method: str, route: str, query: dict, body: dict | None):
    response = getattr(server, method)(route, params=query, **({"json": body} if body is not None else {}))
    assert response.status_code < 500, response.text
    return response.status_code, json.loads(response.text.replace(base, "<base>"))


def test_profiler_jobs_are_listed_as_on_a_local_disk(servers):
    local, remote, _, _ = servers
    local_jobs, remote_jobs = _jobs_listed(local), _jobs_listed(remote)
    assert sorted(local_jobs) == sorted(f"./{name}" for name in JOBS)
    assert local_jobs["./h_profiler_resnet"]["profiler_dir"] == RESNET_PROFILE
    assert (
        local_jobs["./new_meta"]["graph_mode"] == "dynamic" and local_jobs["./orig_meta"]["profiler_dir"] == "profiler"
    )

    def timeless(jobs):
        return {tid: {key: value for key, value in job.items() if key not in TIME_FIELDS} for tid, job in jobs.items()}

    assert timeless(remote_jobs) == timeless(local_jobs)


def _key(method: str, route: str, query: dict, body: dict | None = None) -> str:
    return json.dumps((method, route, query, body), sort_keys=True)


def test_every_profiler_route_answers_as_on_a_local_disk(servers):
    local, remote, local_base, url = servers
    jobs = _jobs_listed(local)
    _jobs_listed(remote)
    local_answers = {_key(*call): _answer(local, local_base, *call) for call in _requests(jobs)}
    remote_answers = {_key(*call): _answer(remote, url, *call) for call in _requests(jobs)}
    # The local answers come from the files (so equal answers cannot both be empty refusals).
    resnet = {"train_id": "./h_profiler_resnet", "profile": RESNET_PROFILE}
    types = local_answers[_key("post", "/profile/ops/search", resnet, {"op_type": "cpu_op_type", "device_id": "0"})]
    assert types[0] == 200 and types[1]["size"] == 18
    meta = {"train_id": "./orig_meta", "profile": "profiler"}
    devices = local_answers[_key("get", "/profile/devices", meta)]
    assert devices == (200, {"device_list": ["0", "1"], "profiler_mode": "graph"})
    info = local_answers[_key("get", "/profile/profile_info", meta)][1]
    assert info["state"] is True and info["ms"] == "2.3.1"
    propose = local_answers[_key("get", "/profile/summary/propose", {**meta, "device_id": "1"})][1]
    assert propose["msadvisor-proposer"] == [{"name": "AICPUModel", "score": 3}]
    new_meta = {"train_id": "./new_meta", "profile": NEW_PROFILE}
    assert local_answers[_key("get", "/profile/profile_info", new_meta)][1]["ms"] == "1.10.1"  # FRAMEWORK's
    assert "msadvisor-proposer" in local_answers[_key("get", "/profile/summary/propose", new_meta)][1]
    cluster = local_answers[_key("get", "/profile/summary/cluster-propose", {"train_id": "./orig_cluster"})][1]
    assert cluster["error_code"] == "50546080"
    gone = local_answers[_key("get", "/profile/devices", {**meta, "profile": "profiler_gone"})][1]
    assert gone["error_code"] == "50546083" and "<base>/orig_meta/profiler_gone" in gone["error_msg"]

    different = [key for key in local_answers if remote_answers[key] != local_answers[key]]
    report = (f"{key}\n  local: {local_answers[key]}\n  store: {remote_answers[key]}" for key in different)
    assert not different, "\n".join(report)
