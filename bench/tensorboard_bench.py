"""TensorBoard event files, side by side with RustBoard: ``python bench/tensorboard_bench.py``.

Issue #20's three speed figures, each printed with RustBoard's beside it and its target:

* (a) one run, 1,000,000 events of one scalar each (tensorboardX ``add_scalar``, as PyTorch
  writes them): our cold load in-process (a fresh child process: ``DataManager`` listing and
  loading as its reload thread does, CRC checking on) and through the real server (start to
  the last step served by ``scalar/metadata``), our RSS; RustBoard's load of the same files.
  Twice: one tag, and three tags written in turn at every step (a loss, a learning rate and an
  accuracy, as a training logs them), whose events interleave. Beside them, without a target of
  the issue: a run shaped like a training's log (those three tags at each of 100,000 steps, a
  histogram every 50 steps, an image every 5,000), and a run of 100,000 distinct tags of one
  value each (a value logged per sample; we keep the last 300 tags, RustBoard all);
* (b) 2,000 runs x 500 events: runs listed by ``train-jobs``, every listed run loaded
  (in-process) and served one after another (real server, which loads a run on its first
  request), the most files held open at once, events/s against RustBoard's;
* (c) a live run appended at 1,000 events/s: delay between a step handed to the writer
  (tensorboardX writes to disk every 50 ms here) and its first answer, against the server's
  reload interval.

RustBoard is ``tensorboard-data-server``'s ``server --logdir X --reload once -v``; its load
time is the wall time from its start to its "Finished load cycle" line, run once with its
default (``--no-checksum``: records checksummed only when parsing fails) and once with
``--checksum``. Its answers are gRPC only, so the live figure has no RustBoard counterpart.
Every measurement is repeated interleaved (ours, RustBoard, ours, ...) and the median shown.

Nothing is installed here: ``pip install tensorboardX tensorboard-data-server``. Logs are
generated once into a temporary dir (``--data-dir``, default ``$TMPDIR/mindinsight-tb-bench``)
and reused.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import psutil  # noqa: E402

from mindinsight.conf import limits  # noqa: E402

TAG = "train/loss"
API = "/v1/mindinsight/datavisual"
# The three tags of (a)'s second run, written in turn at every step; TAG is one of them.
MIXED_TAGS = (TAG, "train/lr", "eval/accuracy")
FULL = {
    "events": 1_000_000,
    "runs": 2_000,
    "run_events": 500,
    "mixed_steps": 333_334,
    "training_steps": 100_000,
    "distinct_tags": 100_000,
}
QUICK = {
    "events": 100_000,
    "runs": 200,
    "run_events": 500,
    "mixed_steps": 33_334,
    "training_steps": 10_000,
    "distinct_tags": 10_000,
}
HISTOGRAM_EVERY, IMAGE_EVERY = 50, 5_000  # steps, in the training-shaped run


# -- logs ---------------------------------------------------------------------------------


def write_run(path: str, steps: int, tags=(TAG,)) -> None:
    """One tensorboardX run: steps 0..steps-1, an event of one scalar per tag and step."""
    from tensorboardX import SummaryWriter

    writer = SummaryWriter(path, flush_secs=120, max_queue=10_000)
    for step in range(steps):
        for index, tag in enumerate(tags):
            writer.add_scalar(tag, (index + 1.0) / (step + 1), step)
    writer.close()


def write_distinct_tags_run(path: str, tags: int) -> None:
    """One tensorboardX run: ``sample/0`` .. ``sample/{tags - 1}``, one value each at step 0."""
    from tensorboardX import SummaryWriter

    writer = SummaryWriter(path, flush_secs=120, max_queue=10_000)
    for index in range(tags):
        writer.add_scalar(f"sample/{index}", float(index), 0)
    writer.close()


def write_training_run(path: str, steps: int) -> None:
    """MIXED_TAGS at every step, a histogram of 1,000 values every HISTOGRAM_EVERY steps and a
    32 x 32 RGB image every IMAGE_EVERY steps."""
    import numpy as np
    from tensorboardX import SummaryWriter

    rng = np.random.default_rng(0)
    writer = SummaryWriter(path, flush_secs=120, max_queue=10_000)
    for step in range(steps):
        for index, tag in enumerate(MIXED_TAGS):
            writer.add_scalar(tag, (index + 1.0) / (step + 1), step)
        if step % HISTOGRAM_EVERY == 0:
            writer.add_histogram("fc.weight", rng.normal(size=1000), step)
        if step % IMAGE_EVERY == 0:
            writer.add_image("sample", rng.integers(0, 256, (3, 32, 32)).astype(np.uint8), step)
    writer.close()


def logs(data_dir: str, sizes: dict) -> dict:
    """Generate (once) and return ``{"one", "mixed", "training", "many", "distinct"}`` base dirs."""
    training = os.path.join(data_dir, f"training-{sizes['training_steps']}")
    if not os.path.exists(os.path.join(training, ".complete")):
        print(f"  writing a training-shaped run of {sizes['training_steps']:,} steps into {training} ...", flush=True)
        write_training_run(os.path.join(training, "run"), sizes["training_steps"])
        open(os.path.join(training, ".complete"), "w").close()
    one = os.path.join(data_dir, f"one-{sizes['events']}")
    mixed = os.path.join(data_dir, f"mixed-{len(MIXED_TAGS)}x{sizes['mixed_steps']}")
    many = os.path.join(data_dir, f"many-{sizes['runs']}x{sizes['run_events']}")
    if not os.path.exists(os.path.join(one, ".complete")):
        print(f"  writing {sizes['events']:,} events with tensorboardX into {one} ...", flush=True)
        write_run(os.path.join(one, "run"), sizes["events"])
        open(os.path.join(one, ".complete"), "w").close()
    if not os.path.exists(os.path.join(mixed, ".complete")):
        print(f"  writing {sizes['mixed_steps']:,} steps x {len(MIXED_TAGS)} tags into {mixed} ...", flush=True)
        write_run(os.path.join(mixed, "run"), sizes["mixed_steps"], MIXED_TAGS)
        open(os.path.join(mixed, ".complete"), "w").close()
    if not os.path.exists(os.path.join(many, ".complete")):
        print(f"  writing {sizes['runs']:,} runs x {sizes['run_events']} events into {many} ...", flush=True)
        for run in range(sizes["runs"]):
            write_run(os.path.join(many, f"run_{run:04d}"), sizes["run_events"])
        open(os.path.join(many, ".complete"), "w").close()
    distinct = os.path.join(data_dir, f"distinct-{sizes['distinct_tags']}")
    if not os.path.exists(os.path.join(distinct, ".complete")):
        print(f"  writing {sizes['distinct_tags']:,} distinct tags into {distinct} ...", flush=True)
        write_distinct_tags_run(os.path.join(distinct, "run"), sizes["distinct_tags"])
        open(os.path.join(distinct, ".complete"), "w").close()
    return {"one": one, "mixed": mixed, "training": training, "many": many, "distinct": distinct}


# -- ours, in-process (child) ---------------------------------------------------------------


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def child_cold(base_dir: str, tag_step: int, tag: str = TAG) -> dict:
    """Fresh process: list and fully load every run of ``base_dir``; time, RSS, open files.
    A run is complete when ``tag``'s last step is ``tag_step``."""
    import gc
    import resource

    from mindinsight.cache.data_manager import DataManager
    from mindinsight.conf.plugins import PluginName

    baseline = open_files()
    most = [0]
    stop = threading.Event()

    def watch():
        while not stop.wait(0.002):
            most[0] = max(most[0], open_files() - baseline)

    watcher = threading.Thread(target=watch, daemon=True)
    # Every run in the detail cache, as RustBoard loads them all (the server keeps
    # limits.MAX_CACHED_TRAIN_JOBS and loads the others on request: see the server figure).
    manager = DataManager(base_dir, reload_interval=0, capacity=10**6)
    watcher.start()
    start, cpu = time.perf_counter(), time.process_time()
    manager.refresh_briefs()
    manager.load_pass()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    stop.set()
    watcher.join()
    gc.collect()
    briefs = manager.briefs()
    complete = 0
    for info in briefs:
        samples = manager.job_data(info.train_id).samples(PluginName.SCALAR, tag)
        complete += samples is not None and int(samples["step"].max()) == tag_step
    return {
        "seconds": seconds,
        "cpu_seconds": cpu,
        "runs": len(briefs),
        "complete_runs": complete,
        "open_files_max": most[0],
        "rss_settled_mb": psutil.Process().memory_info().rss / 2**20,
        "rss_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def ours_inproc(base_dir: str, tag_step: int, tag: str = TAG) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", base_dir, "--tag-step", str(tag_step), "--tag", tag],
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


# -- RustBoard --------------------------------------------------------------------------------


def rustboard_binary() -> str:
    try:
        import tensorboard_data_server
    except ImportError:
        sys.exit("RustBoard is missing: pip install tensorboard-data-server")
    binary = tensorboard_data_server.server_binary()
    if not binary or not os.path.exists(binary):
        sys.exit("tensorboard-data-server has no server binary for this platform")
    return binary


def rustboard(binary: str, base_dir: str, checksum: bool) -> dict:
    """Start to "Finished load cycle", with the most open files and the peak RSS while loading."""
    args = [binary, "--logdir", base_dir, "--reload", "once", "-v", "--port", "0"]
    args.append("--checksum" if checksum else "--no-checksum")
    with tempfile.TemporaryFile("w+") as log:
        start = time.perf_counter()
        proc = subprocess.Popen(args, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        watched = psutil.Process(proc.pid)
        files = rss = 0
        try:
            while True:
                log.seek(0)
                text = log.read()
                if "Finished load cycle" in text:
                    seconds = time.perf_counter() - start
                    break
                if proc.poll() is not None or time.perf_counter() - start > 600:
                    raise RuntimeError(f"RustBoard stopped without loading: {text[-2000:]}")
                try:
                    files = max(files, watched.num_fds())
                    rss = max(rss, watched.memory_info().rss / 2**20)
                except psutil.Error:
                    pass
                time.sleep(0.002)
        finally:
            proc.kill()
            proc.wait()
    reported = re.search(r"Finished load cycle \(([\d.]+)(m?s)\)", text)
    own = float(reported.group(1)) / (1000 if reported.group(2) == "ms" else 1) if reported else None
    return {"seconds": seconds, "own_seconds": own, "open_files_max": files, "rss_peak_mb": rss}


# -- ours, real server ------------------------------------------------------------------------


def start_server(base_dir: str, reload_interval: int):
    from server_bench import cli, free_port

    port, workspace = free_port(), tempfile.mkdtemp(prefix="mi-tb-bench-")
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mindinsight.cli", "start", "--summary-base-dir", base_dir, "--port", str(port)]
        + ["--workspace", workspace, "--reload-interval", str(reload_interval)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def stop():
        cli("stop", "--port", str(port), "--workspace", workspace, env=env)
        proc.wait(timeout=60)

    return port, started, stop


def last_step(port: int, train_id: str):
    from server_bench import get

    query = urllib.parse.urlencode({"train_id": train_id, "tag": TAG})
    status, body = get(port, f"{API}/scalar/metadata?{query}", timeout=10)
    if status != 200 or not body or not body.get("metadatas"):
        return None
    return body["metadatas"][-1]["step"]


def listed_runs(port: int) -> list | None:
    from server_bench import get

    status, body = get(port, f"{API}/train-jobs?offset=0&limit=999", timeout=10)
    if status != 200:
        return None
    names = [job["train_id"] for job in body["train_jobs"]]
    for page in range(1, -(-body["total"] // 999)):
        status, more = get(port, f"{API}/train-jobs?offset={page}&limit=999", timeout=10)
        if status != 200:
            return None
        names += [job["train_id"] for job in more["train_jobs"]]
    return names


def server_one(base_dir: str, last: int) -> dict:
    """Start to the last step of the one run served."""
    from server_bench import RssSampler

    port, started, stop = start_server(base_dir, 3)
    sampler = RssSampler(port)
    sampler.start()  # finds the gunicorn master once it runs
    try:
        while last_step(port, "./run") != last:
            if time.perf_counter() - started > 600:
                raise RuntimeError("the server did not serve the last step in 600 s")
            time.sleep(0.005)
        seconds = time.perf_counter() - started
        time.sleep(3.5)  # one reload tick later
        return {"seconds": seconds, "rss_settled_mb": sampler.sample(), "rss_peak_mb": sampler.peak}
    finally:
        sampler.halt.set()
        stop()


def server_many(base_dir: str, last: int) -> dict:
    """Start to every run listed, then to every listed run's last step served (one after another)."""
    from server_bench import get

    port, started, stop = start_server(base_dir, 3)
    files, halt = [0], threading.Event()

    def watch():  # open regular files of all server processes
        from server_bench import RssSampler

        sampler = RssSampler(port)
        while not halt.wait(0.05):
            master = sampler.master or sampler.find_master()
            sampler.master = master
            if master is None:
                continue
            try:
                procs = [master, *master.children(recursive=True)]
                files[0] = max(files[0], sum(len(proc.open_files()) for proc in procs))
            except psutil.Error:
                pass

    threading.Thread(target=watch, daemon=True).start()
    try:
        names = None
        while not names:
            if time.perf_counter() - started > 120:
                raise RuntimeError("the server listed no run in 120 s")
            names = listed_runs(port)
            time.sleep(0.01)
        listed = time.perf_counter() - started
        for name in names:
            while True:
                # What the UI does on opening a run: it enters the detail cache and loads.
                get(port, f"{API}/plugins?" + urllib.parse.urlencode({"train_id": name, "manual_update": "true"}))
                if last_step(port, name) == last:
                    break
                if time.perf_counter() - started > 900:
                    raise RuntimeError(f"{name} not served in time")
                time.sleep(0.002)
        return {
            "listed": len(names),
            "listed_seconds": listed,
            "seconds": time.perf_counter() - started,
            "open_files_max": files[0],
        }
    finally:
        halt.set()
        stop()


def server_live(data_dir: str, seconds: float, reload_interval: int, rate: int = 1000) -> dict:
    """Append ``rate`` events/s to a run under a running server; delay from hand-off to served."""
    from tensorboardX import SummaryWriter

    base = tempfile.mkdtemp(prefix="live-", dir=data_dir)
    # tensorboardX writes from its own thread, to disk every ``flush_secs``: the delay below
    # counts from the hand-off to the writer, so it includes the writer's own 50 ms.
    writer = SummaryWriter(os.path.join(base, "run"), flush_secs=0.05)
    writer.add_scalar(TAG, 0.0, 0)
    port, started, stop = start_server(base, reload_interval)
    flushed = []  # (last step handed to the writer, when)
    try:
        while last_step(port, "./run") is None:
            if time.perf_counter() - started > 120:
                raise RuntimeError("the live run was not served in 120 s")
            time.sleep(0.01)
        done = threading.Event()

        def write():
            step, begin = 1, time.perf_counter()
            while time.perf_counter() - begin < seconds:
                target = 1 + int((time.perf_counter() - begin) * rate)
                while step <= target:
                    writer.add_scalar(TAG, 1.0 / step, step)
                    step += 1
                flushed.append((step - 1, time.perf_counter()))
                time.sleep(0.05)
            done.set()

        threading.Thread(target=write, daemon=True).start()
        seen = []  # (time, last step served)
        while not done.is_set() or seen[-1][1] < flushed[-1][0]:
            step = last_step(port, "./run")
            seen.append((time.perf_counter(), -1 if step is None else step))
            if done.is_set() and time.perf_counter() - flushed[-1][1] > 5 * reload_interval + 5:
                break  # never served: shows as an infinite delay
            time.sleep(0.02)
        delays = []
        for step, at in flushed:
            first = next((when for when, served in seen if served >= step and when >= at), None)
            delays.append(float("inf") if first is None else first - at)
        delays.sort()
        return {
            "events": flushed[-1][0],
            "rate": flushed[-1][0] / seconds,
            "delay_median": delays[len(delays) // 2],
            "delay_max": delays[-1],
        }
    finally:
        writer.close()
        stop()


# -- report ---------------------------------------------------------------------------------


def median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def load_average() -> str:
    return " ".join(open("/proc/loadavg").read().split()[:3])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1/10 of the events, 1/10 of the runs")
    parser.add_argument("--data-dir", default=os.path.join(tempfile.gettempdir(), "mindinsight-tb-bench"))
    parser.add_argument("--repeat", type=int, default=3, help="interleaved measurements per figure (median)")
    parser.add_argument("--skip-server", action="store_true", help="in-process and RustBoard figures only")
    parser.add_argument("--live-seconds", type=float, default=10.0)
    parser.add_argument("--reload-interval", type=int, default=1, help="the live server's reload interval")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--tag-step", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--tag", default=TAG, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child_cold(args.child, args.tag_step, args.tag)))
        return 0

    sizes = QUICK if args.quick else FULL
    binary = rustboard_binary()
    print(f"load average before: {load_average()} ({os.cpu_count()} CPUs)", flush=True)
    dirs = logs(args.data_dir, sizes)
    figures, rows = {"load_before": load_average(), "sizes": sizes}, []

    def row(label, ours, theirs, target, met):
        rows.append((label, ours, theirs, target, met))
        mark = "-" if met is None else ("yes" if met else "NO")
        print(f"  {label}: ours {ours} | RustBoard {theirs} | target {target}: {mark}", flush=True)

    for name, events, last in (
        ("one", sizes["events"], sizes["events"] - 1),
        ("mixed", sizes["mixed_steps"] * len(MIXED_TAGS), sizes["mixed_steps"] - 1),
        ("many", sizes["runs"] * sizes["run_events"], sizes["run_events"] - 1),
    ):
        ours, plain, checked, served = [], [], [], []
        for turn in range(args.repeat):  # interleaved: the machine's load hits both alike
            print(f"  ({name}, turn {turn + 1}/{args.repeat}) ours in-process, RustBoard twice", flush=True)
            ours.append(ours_inproc(dirs[name], last))
            plain.append(rustboard(binary, dirs[name], checksum=False))
            checked.append(rustboard(binary, dirs[name], checksum=True))
            # Serving every run takes two requests per run: one server pass is enough there.
            if not args.skip_server and (name != "many" or turn == 0):
                print(f"  ({name}, turn {turn + 1}/{args.repeat}) ours through the server", flush=True)
                served.append((server_one if name != "many" else server_many)(dirs[name], last))
        figures[name] = {"ours": ours, "rustboard": plain, "rustboard_checksum": checked, "server": served}
        ours_s = median([r["seconds"] for r in ours])
        cpu_s = median([r["cpu_seconds"] for r in ours])
        if name != "many":
            loaded = events if median([r["complete_runs"] for r in ours]) == 1 else 0
        else:
            loaded = median([r["complete_runs"] for r in ours]) * sizes["run_events"]
        rb_s = median([r["seconds"] for r in plain])
        rbc_s = median([r["seconds"] for r in checked])
        rate, rb_rate, rbc_rate = loaded / ours_s, events / rb_s, events / rbc_s
        best = max(rb_rate, rbc_rate)
        factor = 2.5 if name != "many" else 2.0
        label = {
            "one": f"(a) 1 run x {events:,} events",
            "mixed": f"(a) 1 run x {events:,} events, {len(MIXED_TAGS)} tags in turn",
            "many": "(b) {:,} runs x {} events".format(sizes["runs"], sizes["run_events"]),
        }[name]
        if name == "many":
            runs = median([r["runs"] for r in ours])
            row(
                f"{label}: runs listed and loaded in-process",
                f"{runs:,} of {sizes['runs']:,}",
                f"{sizes['runs']:,}",
                "every run",
                runs == sizes["runs"],
            )
        row(
            f"{label}: cold load in-process, CRC on",
            f"{ours_s:.3f} s, {rate / 1e6:.2f} M events/s (CPU {cpu_s:.3f} s: {loaded / cpu_s / 1e6:.2f} M/s)",
            f"{rb_s:.3f} s, {rb_rate / 1e6:.2f} M/s (--checksum: {rbc_s:.3f} s, {rbc_rate / 1e6:.2f} M/s)",
            (">= 5 M events/s, " if name != "many" else "") + f">= {factor}x RustBoard's best",
            (rate >= 5e6 or name == "many") and rate >= factor * best,
        )
        row(
            f"{label}: ratio to RustBoard",
            f"{rate / rb_rate:.2f}x its default, {rate / rbc_rate:.2f}x --checksum",
            "1x",
            f">= {factor}x",
            rate >= factor * best,
        )
        ours_files = max(r["open_files_max"] for r in ours)
        row(
            f"{label}: most files open at once while loading",
            f"{ours_files}",
            f"{max(r['open_files_max'] for r in plain)} (all fds)",
            "bounded" if name == "many" else "-",
            ours_files <= 16 if name == "many" else None,
        )
        if name != "many":
            row(
                f"{label}: RSS in-process",
                f"{median([r['rss_settled_mb'] for r in ours]):.0f} MB settled, "
                f"{median([r['rss_peak_mb'] for r in ours]):.0f} MB peak",
                f"{median([r['rss_peak_mb'] for r in plain]):.0f} MB peak",
                "<= 200 MB",
                median([r["rss_peak_mb"] for r in ours]) <= 200,
            )
        if served:
            seconds = median([r["seconds"] for r in served])
            if name != "many":
                row(
                    f"{label}: server start to the last step served",
                    f"{seconds:.2f} s, {events / seconds / 1e6:.2f} M events/s",
                    f"{rb_s:.2f} s (load only)",
                    "-",
                    None,
                )
                settled = median([r["rss_settled_mb"] for r in served])
                peak = median([r["rss_peak_mb"] for r in served])
                row(
                    f"{label}: RSS of all server processes",
                    f"{settled:.0f} MB settled, {peak:.0f} MB peak",
                    f"{median([r['rss_peak_mb'] for r in plain]):.0f} MB peak",
                    "<= 200 MB",
                    peak <= 200,
                )
            else:
                listed = median([r["listed"] for r in served])
                row(
                    f"{label}: server start to every run listed",
                    f"{median([r['listed_seconds'] for r in served]):.2f} s, {listed:,} runs listed",
                    f"{sizes['runs']:,}",
                    "every run",
                    listed == sizes["runs"],
                )
                row(
                    f"{label}: server start to every listed run served, one request after another",
                    f"{seconds:.2f} s, {listed * sizes['run_events'] / seconds / 1e6:.2f} M events/s",
                    f"{rb_s:.2f} s (load only)",
                    "-",
                    None,
                )
                row(
                    f"{label}: most files open at once in the server",
                    f"{max(r['open_files_max'] for r in served)}",
                    "-",
                    "bounded",
                    max(r["open_files_max"] for r in served) <= 16,
                )
    ours, plain = [], []
    for turn in range(args.repeat):
        print(f"  (training, turn {turn + 1}/{args.repeat}) ours in-process, RustBoard", flush=True)
        ours.append(ours_inproc(dirs["training"], sizes["training_steps"] - 1))
        plain.append(rustboard(binary, dirs["training"], checksum=False))
    figures["training"] = {"ours": ours, "rustboard": plain}
    ours_s, rb_s = median([r["seconds"] for r in ours]), median([r["seconds"] for r in plain])
    row(
        f"1 run shaped like a training's log ({sizes['training_steps']:,} steps x {len(MIXED_TAGS)} tags, "
        f"a histogram every {HISTOGRAM_EVERY}, an image every {IMAGE_EVERY:,}): cold load in-process, CRC on",
        f"{ours_s:.3f} s{'' if median([r['complete_runs'] for r in ours]) == 1 else ' (INCOMPLETE)'}",
        f"{rb_s:.3f} s: ours {rb_s / ours_s:.2f}x its speed",
        "-",
        None,
    )
    ours, plain = [], []
    last_tag = f"sample/{sizes['distinct_tags'] - 1}"
    for turn in range(args.repeat):
        print(f"  (distinct tags, turn {turn + 1}/{args.repeat}) ours in-process, RustBoard", flush=True)
        ours.append(ours_inproc(dirs["distinct"], 0, last_tag))
        plain.append(rustboard(binary, dirs["distinct"], checksum=False))
    figures["distinct"] = {"ours": ours, "rustboard": plain}
    ours_s, rb_s = median([r["seconds"] for r in ours]), median([r["seconds"] for r in plain])
    row(
        f"1 run of {sizes['distinct_tags']:,} distinct tags, one value each: cold load in-process, CRC on",
        f"{ours_s:.3f} s, the last {limits.MAX_TAGS_PER_JOB} tags kept"
        f"{'' if median([r['complete_runs'] for r in ours]) == 1 else ' (INCOMPLETE)'}",
        f"{rb_s:.3f} s, every tag kept: ours {rb_s / ours_s:.2f}x its speed",
        "-",
        None,
    )
    if not args.skip_server:
        live = server_live(args.data_dir, args.live_seconds, args.reload_interval)
        figures["live"] = live
        row(
            f"(c) live run at {live['rate']:,.0f} events/s, reload interval {args.reload_interval} s",
            f"written to served: median {live['delay_median']:.2f} s, max {live['delay_max']:.2f} s",
            "n/a (gRPC only)",
            f"<= {args.reload_interval} s",
            live["delay_max"] <= args.reload_interval,
        )
    figures["load_after"] = load_average()
    print(f"load average after: {figures['load_after']}", flush=True)
    print("\n| figure | ours | RustBoard | target | met |\n|---|---|---|---|---|")
    for label, ours, theirs, target, met in rows:
        print(f"| {label} | {ours} | {theirs} | {target} | {'-' if met is None else ('yes' if met else 'NO')} |")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"figures": figures, "rows": rows}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
