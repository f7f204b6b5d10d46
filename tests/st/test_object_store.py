"""``--summary-base-dir s3://bucket/prefix``: the real server reading a real S3 server (moto, on loopback).

The same fixtures are served from a local dir and from a bucket, and every answer is compared;
then jobs change in the bucket (appended by re-upload, replaced), the train id tries to leave the
prefix, and the store fails (stopped, paused, throttling with 503 SlowDown, missing bucket,
wrong or revoked credentials): the job list answers ``storage_error``, what was read stays served,
and reading resumes when the store is back. See tests/helpers/s3_server.py for the store.
"""

import difflib
import itertools
import json
import re
import shutil
import stat
from pathlib import Path

import pytest

from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.format.records import frame
from tests.helpers.fault_proxy import FaultProxy
from tests.helpers.fixtures import FIXTURES
from tests.helpers.s3_server import S3Server, running_s3_server
from tests.helpers.server import free_port, run_cli, running_server
from tests.st.conftest import wait_for

TENSORBOARD = FIXTURES.parent / "tensorboard"
BUCKET, PREFIX = "logs", "base"
# Beside the prefix in the same bucket: "base-neighbour" even starts with "base", so a LIST of
# the string prefix "base" (no slash) would find it. Nothing of either may ever be read or listed.
NEIGHBOURS = ("base-neighbour/secret_job", "outside/secret_job")
SECRET_TAG = "secret_everywhere"
LIVE_TAG = "accuracy/scalar"
LIVE_KEY = f"{PREFIX}/live/events.out.events.summary.1795400000.0.vm_MS"
LOAD_SECONDS = 120  # the whole fixture tree, read through S3 on a shared 2-core machine
FAILURE_SECONDS = 90  # a hung store is noticed after the client's own timeouts


def copy_tree(source: Path, dest: Path) -> None:
    shutil.copytree(source, dest)
    for path in dest.rglob("*"):
        path.chmod(path.stat().st_mode | stat.S_IWUSR)  # MindSpore leaves closed files 0400


def event_bytes(step: int, values: dict[str, float]) -> bytes:
    """One framed summary event with scalar ``values`` (tags without the ``/scalar`` suffix)."""
    event = summary_pb.Event(wall_time=1795400000.0 + step, step=step)
    for tag, value in values.items():
        event.summary.value.add(tag=tag, scalar_value=value)
    return frame(event.SerializeToString())


def s3_url(bucket: str = BUCKET, prefix: str = PREFIX) -> str:
    return f"s3://{bucket}/{prefix}"


def job_list(server) -> dict:
    response = server.get("/datavisual/train-jobs", params={"limit": 999})
    assert response.status_code == 200, response.text
    return response.json()


def train_ids(server) -> set[str]:
    return {job["train_id"] for job in job_list(server)["train_jobs"]}


def all_listed(server) -> bool:
    body = job_list(server)
    return body["load_status"] == "loaded" and bool(body["train_jobs"])


def job_brief(server, train_id: str) -> dict:
    return server.get("/datavisual/train-jobs", params={"train_id": train_id}).json()["train_jobs"][0]


def cached(server, train_id: str) -> dict:
    """Load ``train_id`` into the detail cache (it holds 15 jobs, the tree more) and wait until it is
    (a job of profiler output or .pb graphs alone has no summary to cache)."""
    response = server.post("/datavisual/train-job-caches", json={"train_ids": [train_id]})
    assert response.status_code == 200, response.text

    def loaded():
        brief = job_brief(server, train_id)
        return (brief["cache_status"] == "CACHED" or not (brief["summary_files"] or brief["graph_files"])) and brief

    return wait_for(loaded)


def scalar_steps(server, train_id: str, tag: str = LIVE_TAG) -> list[tuple[int, float]]:
    body = server.get("/datavisual/scalar/metadata", params={"train_id": train_id, "tag": tag}).json()
    return [(point["step"], point["value"]) for point in body.get("metadatas", [])]


def storage_error(server) -> dict | None:
    return job_list(server).get("storage_error")


def assert_storage_error(error: dict | None, pattern: str) -> None:
    """A ``storage_error`` naming the problem: an error code and a message matching ``pattern``."""
    assert error is not None, "the job list should name the storage problem"
    assert set(error) == {"error_code", "error_msg"}, error
    assert re.fullmatch(r"[0-9A-Za-z_]+", error["error_code"]), error
    assert re.search(pattern, error["error_msg"], re.IGNORECASE), error


# -- the shared fixture tree, local and in the bucket -------------------------------------------


@pytest.fixture(scope="module")
def local_base(tmp_path_factory) -> Path:
    """Every MindSpore fixture job, the TensorBoard runs (nested ``exp/seed1``) and the hparams sweep."""
    base = tmp_path_factory.mktemp("local") / PREFIX
    for job in sorted(FIXTURES.iterdir()):
        copy_tree(job, base / job.name)
    for run in sorted((TENSORBOARD / "torch").iterdir()):
        copy_tree(run, base / run.name)
    copy_tree(TENSORBOARD / "hparams" / "sweep", base / "sweep")
    return base


def secret_job(dest: Path) -> Path:
    """A job whose every scalar tag is ``SECRET_TAG``: any answer naming it read outside the prefix."""
    dest.mkdir(parents=True)
    data = b"".join(event_bytes(step, {SECRET_TAG: 1.0}) for step in range(1, 4))
    (dest / "events.out.events.summary.1795400000.0.vm_MS").write_bytes(data)
    return dest


@pytest.fixture(scope="module")
def store(tmp_path_factory, local_base):
    """The moto server, its bucket holding ``local_base`` under ``PREFIX`` and the neighbours beside it."""
    work = tmp_path_factory.mktemp("moto")
    with running_s3_server(work) as server:
        server.create_bucket(BUCKET)
        server.upload_tree(local_base, BUCKET, PREFIX)
        for neighbour in NEIGHBOURS:
            server.upload_tree(secret_job(work / "secret" / neighbour), BUCKET, neighbour)
        yield server


@pytest.fixture(scope="module")
def local_server(local_base, tmp_path_factory):
    with running_server(local_base, tmp_path_factory.mktemp("ws_local"), reload_interval=1) as server:
        wait_for(lambda: all_listed(server), timeout=LOAD_SECONDS)
        yield server


@pytest.fixture(scope="module")
def bucket_server(store, tmp_path_factory):
    with running_server(s3_url(), tmp_path_factory.mktemp("ws_s3"), reload_interval=1, env=store.env()) as server:
        wait_for(lambda: all_listed(server), timeout=LOAD_SECONDS)
        yield server


# -- the same answers -----------------------------------------------------------------------------

TIMES = {"create_time", "update_time"}  # the file's mtime locally, the object's LastModified in S3


def without_times(value):
    if isinstance(value, dict):
        return {key: without_times(item) for key, item in value.items() if key not in TIMES}
    if isinstance(value, list):
        return [without_times(item) for item in value]
    return value


def answer(server, path: str, method: str = "get", **kwargs):
    response = getattr(server, method)(path, **kwargs)
    if response.headers.get("Content-Type", "").startswith("application/json"):
        return response.status_code, without_times(response.json())
    return response.status_code, response.content


TAG_ROUTES = {
    "scalar": [("/datavisual/scalar/metadata", {})],
    "image": [("/datavisual/image/metadata", {}), ("/datavisual/image/single-image", {"step": -1})],
    "histogram": [("/datavisual/histograms", {})],
    "tensor": [("/datavisual/tensors", {"detail": "stats"})],
    "text": [("/datavisual/texts", {})],
    "graph": [("/datavisual/graphs/nodes", {})],
    "optimized_graph": [("/datavisual/graphs/nodes", {})],
}


def profiles(local_base: Path) -> list[tuple[str, str]]:
    """``(train_id, profile)`` of every profiler output in the tree."""
    return sorted(
        (f"./{path.parent.relative_to(local_base).as_posix()}", path.name) for path in local_base.rglob("*_ascend_ms")
    )


def every_answer(server, local_base: Path) -> dict:
    """The answers of every read-only route over every job, kind and tag of the tree."""
    answers = {}
    # Listed newest first: by file mtime locally, by upload time in the bucket; the detail cache
    # (LRU) holds whichever jobs were loaded last, and a job outside it lists no plugins. Neither is
    # the store's business; each job's plugins are compared below, once it is loaded.
    body = without_times(job_list(server))
    body.pop("storage_error", None)
    jobs = body.pop("train_jobs")
    for job in jobs:
        del job["cache_status"], job["plugins"]
    body["train_jobs"] = {job.pop("train_id"): job for job in jobs}
    answers["train-jobs"] = body
    for job in sorted(train_ids(server)):
        params = {"train_id": job}
        answers[(job, "brief")] = (200, without_times(cached(server, job)))
        status, plugins = answers[(job, "plugins")] = answer(server, "/datavisual/plugins", params=params)
        assert status == 200, plugins
        for plugin, tags in plugins["plugins"].items():
            for tag in tags:
                for route, extra in TAG_ROUTES.get(plugin, []):
                    answers[(job, route, tag)] = answer(server, route, params={**params, "tag": tag, **extra})
        answers[(job, "dataset_graph")] = answer(server, "/datasets/dataset_graph", params=params)
        answers[(job, "landscape")] = answer(server, "/datavisual/landscape/intervals", params=params)
    status, lineage = answer(server, "/lineagemgr/lineages", method="post", json={})
    lineage["object"].sort(key=lambda row: row["summary_dir"])
    for row in lineage["object"]:
        row["model_lineage"].pop("dataset_mark")  # numbers the datasets in update-time order
    answers["lineage"] = status, lineage
    for job, profile in profiles(local_base):
        params = {"train_id": job, "profile": profile}
        answers[(job, "devices")] = answer(server, "/profile/devices", params=params)
        answers[(job, "profile_info")] = answer(server, "/profile/profile_info", params=params)
        for view in ("cpu_op_type", "cpu_op_info"):
            search = {"op_type": view, "device_id": "0"}
            answers[(job, view)] = answer(server, "/profile/ops/search", method="post", params=params, json=search)
    return answers


def json_diff(local, remote) -> str:
    """The lines that differ between two JSON answers, for a readable failure."""
    lines = [json.dumps(answer, indent=1, sort_keys=True, default=repr).splitlines() for answer in (local, remote)]
    return "\n".join(list(difflib.unified_diff(*lines, "local", "bucket", lineterm="", n=1))[:40])


def kinds_shown(answers: dict) -> set[str]:
    """Plugins with at least one tag in any job's ``/datavisual/plugins`` answer."""
    plugin_answers = [answers[key][1] for key in answers if isinstance(key, tuple) and key[1:] == ("plugins",)]
    return {plugin for body in plugin_answers for plugin, tags in body["plugins"].items() if tags}


def test_every_kind_answers_the_same_from_the_bucket(local_server, bucket_server, local_base):
    local = every_answer(local_server, local_base)
    # Not a comparison of two empty answers: the tree holds every kind, and the local server shows it.
    kinds = kinds_shown(local)
    assert {"scalar", "image", "histogram", "tensor", "graph"} <= kinds, kinds
    assert local["lineage"][1]["object"]
    assert any(local[(job, "devices")][1].get("device_list") for job, _ in profiles(local_base))
    assert {"./exp/seed1", "./sweep/lr0.1"} <= train_ids(local_server)

    remote = every_answer(bucket_server, local_base)
    assert sorted(map(str, remote)) == sorted(map(str, local))
    different = [key for key in local if remote[key] != local[key]]
    assert not different, "\n".join(f"{key}:\n{json_diff(local[key], remote[key])}" for key in different[:3])


def test_nested_runs_have_the_relative_train_ids_of_a_local_dir(bucket_server, local_server):
    assert train_ids(bucket_server) == train_ids(local_server)
    assert "./exp/seed1" in train_ids(bucket_server)
    assert storage_error(bucket_server) is None


# -- containment ----------------------------------------------------------------------------------

ESCAPES = (
    "../base-neighbour/secret_job",
    "./../outside/secret_job",
    "..",
    "/outside/secret_job",
    f"s3://{BUCKET}/outside/secret_job",
    "./exp/../../outside/secret_job",
)


def test_no_train_id_leaves_the_prefix(bucket_server, local_server, store):
    with store.recording() as recording:
        for train_id in ESCAPES:
            local = local_server.get("/datavisual/plugins", params={"train_id": train_id})
            remote = bucket_server.get("/datavisual/plugins", params={"train_id": train_id})
            assert 400 <= remote.status_code < 500, (train_id, remote.text)
            assert (remote.status_code, remote.json()["error_code"]) == (
                local.status_code,
                local.json()["error_code"],
            ), train_id
            assert SECRET_TAG not in remote.text
        # Encoded dots reach the server as they are written.
        for raw in ("%2e%2e/outside/secret_job", "%2E%2E%2Fbase-neighbour%2Fsecret_job"):
            response = bucket_server.get(f"/datavisual/plugins?train_id={raw}")
            assert 400 <= response.status_code < 500 and "error_code" in response.json(), (raw, response.text)
            assert SECRET_TAG not in response.text
        wait_for(lambda: recording.counts().lists >= 2, timeout=30)  # reloads went on meanwhile
    assert not {job for job in train_ids(bucket_server) if "secret" in job}
    counts = recording.counts()
    outside = [key for key in counts.got_keys if not key.startswith(PREFIX + "/")]
    assert not outside, outside
    assert all(prefix.startswith(f"{BUCKET}/{PREFIX}/") for prefix in counts.list_prefixes), counts.list_prefixes


# -- jobs that change in the bucket ---------------------------------------------------------------


LIVE_BUCKETS = itertools.count()


def live_job_bytes() -> bytes:
    return next((FIXTURES / "b_summary_ops").glob("*_MS")).read_bytes()


@pytest.fixture
def live(store, tmp_path):
    """A bucket of its own holding one job ``./live`` (b_summary_ops's log), and a server over it."""
    bucket = f"live-{next(LIVE_BUCKETS)}"
    store.create_bucket(bucket)
    key = LIVE_KEY
    store.put(bucket, key, live_job_bytes())
    with running_server(s3_url(bucket), tmp_path / "ws", reload_interval=1, env=store.env()) as server:
        wait_for(lambda: len(scalar_steps(server, "./live")) == 300, timeout=LOAD_SECONDS)
        yield server, bucket, key


def test_a_reuploaded_bigger_object_shows_the_new_steps(live, store):
    server, bucket, key = live
    with store.recording() as recording:
        store.append(bucket, key, event_bytes(301, {"accuracy": 0.5}) + event_bytes(302, {"accuracy": 0.625}))
        wait_for(lambda: scalar_steps(server, "./live")[-2:] == [(301, 0.5), (302, 0.625)], timeout=30)
    assert [step for step, _ in scalar_steps(server, "./live")] == list(range(1, 303))
    # Only the new bytes were fetched, not the object again (S3 has no append: it is a new object);
    # a little more is fine (the bytes before the old offset, compared to see they are unchanged).
    new_bytes = len(event_bytes(301, {"accuracy": 0.5})) * 2
    fetched = recording.counts().bytes_by_key.get(key, 0)
    assert new_bytes <= fetched < new_bytes + 64 * 1024, (fetched, new_bytes, len(live_job_bytes()))


def test_a_replaced_object_is_read_again(live, store):
    server, bucket, key = live
    original = live_job_bytes()
    store.put(bucket, key, original + event_bytes(301, {"accuracy": 0.5}) + event_bytes(302, {"accuracy": 0.75}))
    wait_for(lambda: scalar_steps(server, "./live")[-2:] == [(301, 0.5), (302, 0.75)], timeout=30)
    # Same size, older bytes different: only the ETag and the modification time tell.
    store.put(bucket, key, original + event_bytes(301, {"accuracy": 0.25}) + event_bytes(302, {"accuracy": 0.125}))
    wait_for(lambda: scalar_steps(server, "./live")[-2:] == [(301, 0.25), (302, 0.125)], timeout=30)
    # Smaller: the old offset is past the end; the object is read from the start.
    store.put(bucket, key, original + event_bytes(301, {"accuracy": 0.0625}))
    wait_for(lambda: scalar_steps(server, "./live")[-1:] == [(301, 0.0625)], timeout=30)
    assert [step for step, _ in scalar_steps(server, "./live")] == list(range(1, 302))


def test_unchanged_objects_are_never_fetched_again(live, store):
    server, _bucket, _key = live
    with store.recording() as recording:
        wait_for(lambda: recording.counts().lists >= 3, timeout=30)  # three reloads at least
    counts = recording.counts()
    assert counts.gets == 0 and counts.heads == 0, counts
    assert counts.lists <= 2 * 3 + 2, counts  # one LIST (one page) per reload


# -- failures -------------------------------------------------------------------------------------


@pytest.fixture
def own_store(tmp_path):
    """A store of the test's own (the failure tests stop, pause or lock it), holding ``./live``."""
    with running_s3_server(tmp_path / "moto") as server:
        server.create_bucket(BUCKET)
        server.put(BUCKET, LIVE_KEY, live_job_bytes())
        yield server


def served_while_failing(server) -> None:
    """During a storage failure: the job is still listed and its data still served."""
    body = job_list(server)
    assert "./live" in {job["train_id"] for job in body["train_jobs"]}, body
    assert len(scalar_steps(server, "./live")) == 300


def resumes(server, store: S3Server) -> None:
    """Back again: steps appended meanwhile show, and the error is gone."""
    wait_for(lambda: scalar_steps(server, "./live")[-1:] == [(301, 0.5)], timeout=FAILURE_SECONDS)
    wait_for(lambda: storage_error(server) is None, timeout=30)
    assert [step for step, _ in scalar_steps(server, "./live")] == list(range(1, 302))


def loaded_live_server(store: S3Server, tmp_path: Path, endpoint: str | None = None):
    """A server over ``s3://logs/base`` of ``store`` (reached at ``endpoint``, else directly)."""
    return running_server(s3_url(), tmp_path / "ws", reload_interval=1, env=store.env(endpoint))


def test_a_stopped_store_then_restarted(own_store, tmp_path):
    with loaded_live_server(own_store, tmp_path) as server:
        wait_for(lambda: len(scalar_steps(server, "./live")) == 300, timeout=LOAD_SECONDS)
        assert storage_error(server) is None
        own_store.stop()  # connection refused
        wait_for(lambda: storage_error(server) is not None, timeout=FAILURE_SECONDS)
        assert_storage_error(storage_error(server), r"connect|refused|unreachable|endpoint")
        served_while_failing(server)
        own_store.start()  # moto comes back empty: what the store held is uploaded again, bigger
        own_store.restore()
        own_store.append(BUCKET, LIVE_KEY, event_bytes(301, {"accuracy": 0.5}))
        resumes(server, own_store)


def test_a_paused_store_then_resumed(own_store, tmp_path):
    with loaded_live_server(own_store, tmp_path) as server:
        wait_for(lambda: len(scalar_steps(server, "./live")) == 300, timeout=LOAD_SECONDS)
        own_store.pause()  # it hangs, keeping its objects
        try:
            wait_for(lambda: storage_error(server) is not None, timeout=FAILURE_SECONDS)
            assert_storage_error(storage_error(server), r"time|connect|unreachable|endpoint")
            served_while_failing(server)
        finally:
            own_store.resume()
        own_store.append(BUCKET, LIVE_KEY, event_bytes(301, {"accuracy": 0.5}))
        resumes(server, own_store)


def test_throttling_beyond_retries_then_over(own_store, tmp_path):
    with FaultProxy(own_store.port) as proxy:
        with loaded_live_server(own_store, tmp_path, endpoint=proxy.endpoint) as server:
            wait_for(lambda: len(scalar_steps(server, "./live")) == 300, timeout=LOAD_SECONDS)
            proxy.fail_next(10**9)
            wait_for(lambda: storage_error(server) is not None, timeout=FAILURE_SECONDS)
            assert_storage_error(storage_error(server), r"SlowDown|503|throttl|rate")
            served_while_failing(server)
            assert proxy.failed > 1  # retried before giving up
            own_store.append(BUCKET, LIVE_KEY, event_bytes(301, {"accuracy": 0.5}))
            proxy.fail_next(0)
            resumes(server, own_store)


def test_a_few_503s_are_retried_without_losing_anything(own_store, tmp_path):
    with FaultProxy(own_store.port) as proxy:
        with loaded_live_server(own_store, tmp_path, endpoint=proxy.endpoint) as server:
            wait_for(lambda: len(scalar_steps(server, "./live")) == 300, timeout=LOAD_SECONDS)
            own_store.append(BUCKET, LIVE_KEY, event_bytes(301, {"accuracy": 0.5}))
            proxy.fail_next(2)
            resumes(server, own_store)
            assert proxy.failed == 2


def test_a_missing_bucket_then_created(own_store, tmp_path):
    url = s3_url("not-there-yet")
    with running_server(url, tmp_path / "ws", reload_interval=1, env=own_store.env()) as server:
        wait_for(lambda: storage_error(server) is not None, timeout=FAILURE_SECONDS)
        body = job_list(server)
        assert body["train_jobs"] == []
        assert_storage_error(body["storage_error"], r"bucket|NoSuchBucket|not-there-yet")
        own_store.create_bucket("not-there-yet")
        own_store.put("not-there-yet", LIVE_KEY, live_job_bytes())
        wait_for(lambda: len(scalar_steps(server, "./live")) == 300, timeout=FAILURE_SECONDS)
        wait_for(lambda: storage_error(server) is None, timeout=30)


@pytest.fixture
def guarded_store(tmp_path):
    """A store that checks signatures, keys and IAM policies, holding ``./live``."""
    with running_s3_server(tmp_path / "moto", auth_after=S3Server.IAM_SETUP_ACTIONS) as server:
        server.add_iam_user()
        server.create_bucket(BUCKET)
        server.put(BUCKET, LIVE_KEY, live_job_bytes())
        yield server


def test_wrong_credentials(guarded_store, tmp_path):
    env = {**guarded_store.env(), "AWS_SECRET_ACCESS_KEY": "not-the-secret"}
    with running_server(s3_url(), tmp_path / "ws", reload_interval=1, env=env) as server:
        wait_for(lambda: storage_error(server) is not None, timeout=FAILURE_SECONDS)
        body = job_list(server)
        assert body["train_jobs"] == []
        assert_storage_error(body["storage_error"], r"credential|signature|access key|denied|forbidden|403")


def test_access_revoked_then_granted_again(guarded_store, tmp_path):
    with loaded_live_server(guarded_store, tmp_path) as server:
        wait_for(lambda: len(scalar_steps(server, "./live")) == 300, timeout=LOAD_SECONDS)
        guarded_store.set_s3_access(False)
        wait_for(lambda: storage_error(server) is not None, timeout=FAILURE_SECONDS)
        assert_storage_error(storage_error(server), r"denied|forbidden|403|credential|permission")
        served_while_failing(server)
        guarded_store.set_s3_access(True)
        guarded_store.append(BUCKET, LIVE_KEY, event_bytes(301, {"accuracy": 0.5}))
        resumes(server, guarded_store)


# -- a protocol whose package is missing ------------------------------------------------------------


@pytest.mark.parametrize("url,extra", [("gs://bucket/logs", "gcs"), ("az://container/logs", "azure")])
def test_a_url_without_its_package_names_the_extra(url, extra, tmp_path):
    port, workspace = str(free_port()), str(tmp_path / "ws")
    started = run_cli("start", "--summary-base-dir", url, "--workspace", workspace, "--port", port)
    if started.returncode == 0:  # a server that should not be running: stopped before the test fails
        run_cli("stop", "--port", port, "--workspace", workspace)
    output = started.stdout + started.stderr
    assert started.returncode != 0, output
    assert f"mindinsight[{extra}]" in output, output
    assert "Traceback" not in output, output


def test_storage_options_reach_the_store(store, tmp_path):
    """``--storage-options`` (JSON for fsspec) carries what the environment does not: here the endpoint."""
    env = {name: value for name, value in store.env().items() if name != "AWS_ENDPOINT_URL"}
    options = json.dumps({"client_kwargs": {"endpoint_url": store.endpoint}})
    with running_server(
        s3_url(), tmp_path / "ws", reload_interval=1, env=env, options=("--storage-options", options)
    ) as server:
        wait_for(lambda: "./exp/seed1" in train_ids(server), timeout=LOAD_SECONDS)
        assert storage_error(server) is None
