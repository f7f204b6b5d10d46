"""Object-store bench (issue #21): ``python bench/s3_bench.py [--quick] [--data-dir D] [--jobs N]``.

Everything runs against a real S3 protocol server on loopback (moto in server mode, started by
tests/helpers/s3_server.py), read by a real ``mindinsight start --summary-base-dir s3://...``:

* discovery: 1,000 jobs of 200 steps (written with our SummaryWriter, as bench/gen.py does) and
  3 real MindSpore fixture jobs in one bucket; seconds from ``mindinsight start`` to the first
  answer of ``train-jobs``, and from it to every job listed (target <= 2 s);
* the 10 M-value scalar log of bench/run.py (50 tags x 200,000 steps, 206 MiB) loaded from the
  bucket and from local disk by the same server code: values/s of each and their ratio
  (target >= 50 %);
* idle cost, counted by moto's own request recorder: LIST pages per reload per 1,000 objects
  (target <= 2), GETs of unchanged objects (target 0), requests per hour for the idle jobs;
* append: one job's file re-uploaded bigger (S3 has no append): bytes fetched / new bytes.

A figure the server cannot give yet (its object-store part missing or failing) prints
``not measurable: <why>`` and the bench goes on with the next one.
"""

import argparse
import concurrent.futures
import contextlib
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import requests

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import gen  # noqa: E402

from mindinsight.summary import SummaryWriter  # noqa: E402
from tests.helpers.s3_server import S3Server  # noqa: E402
from tests.helpers.server import running_server  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "mindspore-2.10"
REAL_JOBS = ("a_lenet_collector", "b_summary_ops", "d_landscape_epoch")
BUCKET = "bench"
RELOAD_INTERVAL = 3  # the server's default
FULL = {"jobs": 1_000, "steps": 200, "scalar_steps": 200_000, "scalar_tags": 50, "idle_seconds": 30}
QUICK = {"jobs": 1_000, "steps": 200, "scalar_steps": 20_000, "scalar_tags": 50, "idle_seconds": 12}


class NotMeasurable(Exception):
    """The figure cannot be taken (yet); the message says why."""


def small_job(data_dir: Path, steps: int) -> Path:
    """One job of ``steps`` steps x 4 scalar tags; cached like bench/gen.py's logs."""

    def build(job_dir):
        with SummaryWriter(job_dir, timestamp=gen.FILE_TS) as writer:
            for step in range(1, steps + 1):
                values = {f"train/tag_{index}": float(step * 0.01 + index) for index in range(4)}
                writer.add_values(step, values, wall_time=gen.WALL_TIME0 + step)

    return Path(gen._cached(str(data_dir / f"small_4x{steps}"), build))


def upload_jobs(store: S3Server, prefix: str, jobs: dict[str, Path]) -> int:
    """Upload each job dir to ``prefix/<name>/``, 8 at a time; the number of objects."""
    uploads = [
        (f"{prefix}/{name}/{path.relative_to(job).as_posix()}", path)
        for name, job in jobs.items()
        for path in sorted(job.rglob("*"))
        if path.is_file() and path.name != ".complete"
    ]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda item: store.put(BUCKET, item[0], item[1].read_bytes()), uploads))
    return len(uploads)


def job_list(server, **params) -> dict | None:
    try:
        response = server.get("/datavisual/train-jobs", params={"limit": 999, **params})
    except requests.RequestException:
        return None
    return response.json() if response.status_code == 200 else None


def every_train_id(server) -> set[str]:
    """All listed train ids, page by page (999 a page)."""
    ids: set[str] = set()
    offset = 0
    while True:
        body = job_list(server, offset=offset)
        if body is None:
            return ids
        ids |= {job["train_id"] for job in body["train_jobs"]}
        offset += 1
        if len(ids) >= body["total"] or not body["train_jobs"]:
            return ids


def wait(predicate, timeout: float, what: str, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() > deadline:
            raise NotMeasurable(f"{what} not within {timeout:.0f} s")
        time.sleep(interval)


@contextlib.contextmanager
def started_server(base: str, workspace: Path, env: dict | None = None):
    """``running_server`` with the bench's reload interval; a failed start is not measurable."""
    server_cm = running_server(base, workspace, reload_interval=RELOAD_INTERVAL, env=env)
    try:
        server = server_cm.__enter__()
    except RuntimeError as error:
        raise NotMeasurable(f"mindinsight start failed: {str(error).strip()[-400:]}") from None
    try:
        yield server
    finally:
        server_cm.__exit__(None, None, None)


def cached(server, train_id: str, timeout: float) -> float:
    """Ask the server to load ``train_id`` fully; seconds until it is CACHED."""
    started = time.perf_counter()
    server.post("/datavisual/train-job-caches", json={"train_ids": [train_id]})

    def done():
        body = job_list(server, train_id=train_id)
        return body and body["train_jobs"] and body["train_jobs"][0]["cache_status"] == "CACHED"

    wait(done, timeout, f"{train_id} loaded")
    return time.perf_counter() - started


def report(label: str, figure) -> None:
    try:
        print(f"  {label}: {figure()}", flush=True)
    except NotMeasurable as why:
        print(f"  {label}: not measurable: {why}", flush=True)
    except Exception as error:  # a figure that breaks must not hide the others
        print(f"  {label}: not measurable: {type(error).__name__}: {error}", flush=True)


def discovery_and_idle(store: S3Server, work: Path, params: dict, small: Path) -> None:
    jobs = {f"job{index:04d}": small for index in range(params["jobs"])}
    jobs.update({name: FIXTURES / name for name in REAL_JOBS})
    started = time.perf_counter()
    objects = upload_jobs(store, "many", jobs)
    print(f"  uploaded {len(jobs):,} jobs ({objects:,} objects) in {time.perf_counter() - started:.1f} s", flush=True)
    expected = len(jobs)
    state: dict = {}

    def discovery():
        t0 = time.perf_counter()
        cm = started_server(f"s3://{BUCKET}/many", work / "ws_many", env=store.env())
        server = cm.__enter__()
        state["cm"], state["server"] = cm, server
        wait(lambda: job_list(server) is not None, 60, "first train-jobs answer")
        first_at = time.perf_counter() - t0
        try:
            wait(lambda: len(every_train_id(server)) >= expected, 120, f"all {expected:,} jobs listed", 0.02)
        except NotMeasurable as why:
            body = job_list(server) or {}
            raise NotMeasurable(
                f"{why} (listed {body.get('total')}; storage_error {body.get('storage_error')})"
            ) from None
        listed_at = time.perf_counter() - t0
        verdict = "met" if listed_at - first_at <= 2 else "NOT met"
        return (
            f"first answer {first_at:.2f} s after start; all {expected:,} jobs listed "
            f"{listed_at - first_at:.2f} s after it (target <= 2 s: {verdict})"
        )

    report("discovery, 1,000 + 3 jobs", discovery)
    server = state.get("server")
    try:
        if server is not None:
            report("idle cost", lambda: idle_cost(store, server, params["idle_seconds"], objects))
            report("append (re-upload bigger)", lambda: append_cost(store, server))
    finally:
        if "cm" in state:
            state["cm"].__exit__(None, None, None)


def idle_cost(store: S3Server, server, seconds: float, objects: int) -> str:
    body = job_list(server)
    if body is None or body.get("storage_error"):
        raise NotMeasurable(f"the job list answers {body}")
    time.sleep(RELOAD_INTERVAL * 2)  # past the first reloads
    with store.recording() as recording:
        reloads = list_bursts(recording, seconds)
    counts = recording.counts()
    if not reloads:
        raise NotMeasurable(f"no LIST at all in {seconds:.0f} s: the server did not reload ({counts})")
    pages = counts.lists / reloads / (objects / 1000)
    per_hour = counts.total / seconds * 3600
    lists_verdict = "met" if pages <= 2 else "NOT met"
    gets_verdict = "met" if counts.gets == 0 else "NOT met"
    return (
        f"{counts.lists} LIST, {counts.gets} GET, {counts.heads} HEAD, {counts.other} other in {seconds:.0f} s "
        f"({reloads} reloads, --reload-interval {RELOAD_INTERVAL}, {objects:,} objects): "
        f"{pages:.2f} LIST pages per reload per 1,000 objects (target <= 2: {lists_verdict}); "
        f"GETs of unchanged objects {counts.gets} (target 0: {gets_verdict}); "
        f"{per_hour:,.0f} requests per hour for {objects:,} idle objects"
    )


def list_bursts(recording, seconds: float) -> int:
    """Reloads seen within ``seconds``: bursts of LIST requests more than a second apart."""
    deadline = time.monotonic() + seconds
    bursts, seen, last_list = 0, 0, float("-inf")
    while time.monotonic() < deadline:
        lists = recording.counts().lists
        if lists > seen:
            now = time.monotonic()
            if now - last_list > 1.0:
                bursts += 1
            seen, last_list = lists, now
        time.sleep(0.05)
    return bursts


def append_cost(store: S3Server, server) -> str:
    train_id = "./job0000"
    cached(server, train_id, 60)
    key = next(k for (bucket, k) in store.sizes if bucket == BUCKET and k.startswith("many/job0000/"))
    old_size = store.sizes[(BUCKET, key)]
    extra = Path(tempfile.mkdtemp(prefix="s3bench_append_"))
    try:
        with SummaryWriter(extra, timestamp=gen.FILE_TS) as writer:
            for step in range(201, 251):
                writer.add_values(step, {"train/tag_0": float(step)}, wall_time=gen.WALL_TIME0 + step)
        written = next(extra.iterdir()).read_bytes()
    finally:
        shutil.rmtree(extra, ignore_errors=True)
    # The writer's file starts with its version event; the steps follow it: append those bytes.
    new_bytes = written[_first_record_length(written) :]
    with store.recording() as recording:
        store.append(BUCKET, key, new_bytes)

        def shows_new_steps():
            body = server.get("/datavisual/scalar/metadata", params={"train_id": train_id, "tag": "train/tag_0/scalar"})
            points = body.json().get("metadatas", []) if body.status_code == 200 else []
            return points and points[-1]["step"] == 250

        wait(shows_new_steps, 60, "appended steps shown")
    counts = recording.counts()
    fetched = counts.bytes_by_key.get(key, 0)
    gets = counts.got_keys.count(key)
    others = counts.get_bytes - fetched
    other_jobs = ", ".join(sorted({other.split("/")[1] for other in counts.got_keys if other != key}))
    return (
        f"{old_size:,} -> {old_size + len(new_bytes):,} bytes; fetched {fetched:,} bytes of it in {gets} GETs "
        f"for {len(new_bytes):,} new bytes: ratio {fetched / len(new_bytes):.2f} "
        f"(other objects meanwhile: {others:,} bytes in {counts.gets - gets} GETs, of jobs {other_jobs or '-'})"
    )


def _first_record_length(data: bytes) -> int:
    """Bytes of the first framed record (8-byte length, 4-byte CRC, payload, 4-byte CRC)."""
    return 12 + int.from_bytes(data[:8], "little") + 4


def scalar_rate(store: S3Server, work: Path, params: dict) -> None:
    """The scalar log put in place while the server runs (hard-linked locally, uploaded to the
    bucket), timed from its first listing to fully loaded: the load alone, without start-up."""
    steps, tags = params["scalar_steps"], params["scalar_tags"]
    values = steps * tags
    job = Path(gen.scalar_log(str(work.parent), steps, tags))
    size = sum(path.stat().st_size for path in job.glob("*summary*"))
    local_base = work / "scalar_local"
    local_base.mkdir()
    rates: dict[str, float] = {}

    def load(label: str, base: str, place, env: dict | None):
        with started_server(base, work / f"ws_scalar_{label}", env=env) as server:
            wait(lambda: job_list(server) is not None, 60, "first train-jobs answer")
            place()
            wait(lambda: "./scalars" in every_train_id(server), 60, "scalar job listed", 0.02)
            seconds = cached(server, "./scalars", 600)
        rates[label] = values / seconds
        return f"{seconds:.2f} s, {values / seconds / 1e6:.2f} M values/s, {size / seconds / 1e6:.0f} MB/s"

    label = f"{values / 1e6:g} M-value scalar log ({size / 2**20:.0f} MiB)"
    report(
        f"{label} from local disk",
        lambda: load("local", str(local_base), lambda: gen.linked_copy(str(job), str(local_base / "scalars")), None),
    )
    report(
        f"{label} from the bucket",
        lambda: load(
            "s3", f"s3://{BUCKET}/scalar", lambda: upload_jobs(store, "scalar", {"scalars": job}), store.env()
        ),
    )

    def ratio():
        if len(rates) < 2:
            raise NotMeasurable("one of the two loads above was not measured")
        share = rates["s3"] / rates["local"]
        return f"{share:.0%} of the local-disk rate (target >= 50 %: {'met' if share >= 0.5 else 'NOT met'})"

    report("bucket / local rate", ratio)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="a 1 M-value scalar log instead of 10 M; shorter idle window"
    )
    parser.add_argument("--data-dir", default=str(HERE / ".data"), help="where logs are cached")
    parser.add_argument("--jobs", type=int, help="small jobs in the discovery bucket (default 1,000)")
    args = parser.parse_args(argv)
    params = dict(QUICK if args.quick else FULL)
    if args.jobs:
        params["jobs"] = args.jobs
    data_dir = Path(args.data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="s3bench_", dir=data_dir))
    print(
        f"object-store bench ({'quick' if args.quick else 'full'}), load average {os.getloadavg()[0]:.1f}", flush=True
    )
    store = S3Server(work / "moto").start()
    try:
        store.create_bucket(BUCKET)
        print(f"  moto {store.endpoint} (python -m moto.server, loopback)", flush=True)
        small = small_job(data_dir, params["steps"])
        discovery_and_idle(store, work, params, small)
        scalar_rate(store, work, params)
    finally:
        store.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"  load average after: {os.getloadavg()[0]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
