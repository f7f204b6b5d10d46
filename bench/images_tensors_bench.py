"""Image and tensor serving figures: a real ``mindinsight start``, measured from outside.

* ``image/single-image`` of the image + histogram log (a 32x32 PNG), N concurrent keep-alive
  clients for D seconds (bench/loadgen.py in its own process): p99 <= 25 ms;
* ``tensors?detail=data`` of a tensor at the element limit, 10,000,000 float32 values, shape
  [10, 1000, 1000] (a 40 MB event, written with our SummaryWriter and cached in the data
  dir): the first slice (reads the tensor and its overall statistics, once per step), then
  sequential repeats of the largest answer the limit allows (``[0,0:100,:]``, 100,000 values)
  and of ``[0,:,:]`` (1,000,000 values: over the 100,000-value response limit, so it answers
  50545013 as the original does, without building the values), target <= 100 ms. A second
  tag of the same size, shape [1000, 100, 100], shows ``[0,:,:]`` answered with its 10,000 values.
"""

import http.client
import os
import shutil
import statistics
import sys
import tempfile
import time
import urllib.parse

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

import gen  # noqa: E402
import server_bench  # noqa: E402

from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir  # noqa: E402
from mindinsight.summary import SummaryWriter  # noqa: E402

API = server_bench.API
IMAGE_TAG = "input/image_0/image"
TENSOR_SHAPES = {"w_10x1000x1000": (10, 1000, 1000), "w_1000x100x100": (1000, 100, 100)}
TENSOR_STEP = 1


def float_tensor(values: np.ndarray) -> anf_ir.TensorProto:
    """A float32 TensorProto made from its wire form (packed ``float_data``, field 3), as fast
    as a copy; extending ``float_data`` value by value takes seconds for 10 M values."""
    header = anf_ir.TensorProto(dims=list(values.shape), data_type=anf_ir.DT_FLOAT32).SerializeToString()
    data = values.astype("<f4").tobytes()
    length, varint = len(data), bytearray()
    while length >= 0x80:
        varint.append(length & 0x7F | 0x80)
        length >>= 7
    varint.append(length)
    return anf_ir.TensorProto.FromString(header + b"\x1a" + bytes(varint) + data)


def tensor_log(data_dir: str) -> str:
    """A job dir with one step of two 10,000,000-element float32 tensors (cached)."""

    def build(job_dir):
        rng = np.random.default_rng(3)
        with SummaryWriter(job_dir, timestamp=gen.FILE_TS) as writer:
            values = {
                tag: float_tensor(rng.standard_normal(shape, dtype=np.float32)) for tag, shape in TENSOR_SHAPES.items()
            }
            writer.add_values(TENSOR_STEP, values, wall_time=gen.WALL_TIME0)

    return gen._cached(os.path.join(data_dir, "tensors_10m"), build)


def timed_get(port: int, path: str) -> tuple[float, int, int]:
    """``(seconds, status, body bytes)`` of one GET on a fresh connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    elapsed = time.perf_counter() - started
    conn.close()
    return elapsed, response.status, len(body)


def tensor_path(tag: str, dims: str) -> str:
    query = {"train_id": "./tensors", "tag": f"{tag}/tensor", "detail": "data", "step": TENSOR_STEP, "dims": dims}
    return f"{API}/tensors?" + urllib.parse.urlencode(query)


def repeated(port: int, path: str, times: int) -> tuple[str, float, int]:
    runs = [timed_get(port, path) for _ in range(times)]
    seconds = sorted(run[0] * 1e3 for run in runs)
    status, size = runs[-1][1], runs[-1][2]
    text = (
        f"median {statistics.median(seconds):.1f} ms, max {seconds[-1]:.1f} ms over {times} "
        f"(HTTP {status}, {size / 1e3:.0f} kB)"
    )
    return text, seconds[-1], status


def wait_loaded(port: int, timeout: float = 600) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        status, body = server_bench.get(port, f"{API}/train-jobs?limit=999")
        if status == 200 and body["train_jobs"] and all(job["cache_status"] == "CACHED" for job in body["train_jobs"]):
            status, body = server_bench.get(port, f"{API}/plugins?train_id=./tensors")
            if status == 200 and len(body["plugins"]["tensor"]) == len(TENSOR_SHAPES):
                return time.perf_counter() - started
        time.sleep(0.1)
    raise RuntimeError("the server did not load the image and tensor logs")


def run(dirs: dict, data_dir: str, duration: float = 20.0, clients: int = 32) -> list:
    """Rows ``(figure, measured, target, met)`` of the image and tensor serving figures."""
    tensors = tensor_log(data_dir)
    image_job = os.path.join(dirs["image"], "imghist")
    # beside run.prepare's base dirs, named after the same logs
    base = os.path.join(os.path.dirname(dirs["image"]), "images_tensors")
    gen.linked_copy(tensors, os.path.join(base, "tensors"))
    gen.linked_copy(image_job, os.path.join(base, "imghist"))
    workspace = tempfile.mkdtemp(prefix="mi-bench-ws-")
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    port = server_bench.free_port()
    rows = []
    started = server_bench.cli(
        "start", "--summary-base-dir", base, "--port", str(port), "--workspace", workspace,
        "--reload-interval", "3", env=env,
    )  # fmt: skip
    if started.returncode != 0:
        raise RuntimeError(f"mindinsight start failed: {started.stdout}{started.stderr}")
    try:
        loaded = wait_loaded(port)
        print(f"  image + tensor logs loaded {loaded:.2f} s after start", flush=True)

        image_path = f"{API}/image/single-image?" + urllib.parse.urlencode(
            {"train_id": "./imghist", "tag": IMAGE_TAG, "step": -1}
        )
        _, status, size = timed_get(port, image_path)
        if status != 200:
            raise RuntimeError(f"single-image answered {status}")
        result = server_bench.loadgen(port, image_path, clients, duration)
        rows.append(server_bench.latency_row(f"image/single-image ({size} B PNG)", result, 25.0, clients))
        print(f"  {rows[-1][0]}: {rows[-1][1]}", flush=True)
        # the floor of the serving stack under the same conditions (the machine may be shared)
        result = server_bench.loadgen(port, "/v1/mindinsight/ui-config", clients, min(duration, 10.0))
        rows.append(server_bench.latency_row("reference: ui-config, same server", result, None, clients))
        print(f"  {rows[-1][0]}: {rows[-1][1]}", flush=True)

        wide, tall = TENSOR_SHAPES
        first, status, size = timed_get(port, tensor_path(wide, "[0,0:100,:]"))
        rows.append(
            (
                "tensors data, 10 M-value tensor, first slice (reads the tensor and its statistics)",
                f"{first * 1e3:.0f} ms (HTTP {status}, {size / 1e3:.0f} kB)",
                "-",
                None,
            )
        )
        print(f"  {rows[-1][0]}: {rows[-1][1]}", flush=True)
        for label, path, expect in (
            (
                "[0,0:100,:] of [10,1000,1000] (100,000 values, the largest answer)",
                tensor_path(wide, "[0,0:100,:]"),
                200,
            ),
            ("[0,:,:] of [10,1000,1000] (1 M values: 50545013)", tensor_path(wide, "[0,:,:]"), 400),
            ("[0,:,:] of [1000,100,100] (10,000 values)", tensor_path(tall, "[0,:,:]"), 200),
        ):
            timed_get(port, path)  # the tag's first read is the figure above, not these
            text, worst, status = repeated(port, path, 20)
            rows.append((f"tensors data {label}, once loaded", text, "<= 100 ms", worst <= 100 and status == expect))
            print(f"  {rows[-1][0]}: {rows[-1][1]}", flush=True)
    finally:
        stopped = server_bench.cli("stop", "--port", str(port), "--workspace", workspace, env=env)
        if stopped.returncode != 0:
            print(f"  warning: mindinsight stop: {stopped.stdout}{stopped.stderr}", flush=True)
        shutil.rmtree(workspace, ignore_errors=True)
    return rows


def main(argv=None) -> int:
    """``python bench/images_tensors_bench.py [--quick] [--duration S] [--clients N]``: these
    figures alone (``bench/run.py`` prints them with the rest)."""
    import argparse

    import run as bench_run

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--data-dir", default=os.path.join(HERE, ".data"))
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=32)
    args = parser.parse_args(argv)
    os.makedirs(args.data_dir, exist_ok=True)
    print(f"machine: {bench_run.machine()}; load average before: {bench_run.load_average()}", flush=True)
    dirs = bench_run.prepare(args.data_dir, bench_run.QUICK if args.quick else bench_run.FULL)
    rows = run(dirs, args.data_dir, duration=args.duration, clients=args.clients)
    print(f"load average after: {bench_run.load_average()}")
    for label, detail, target, met in rows:
        print(f"| {label} | {detail} | {target} | {'n/a' if met is None else ('yes' if met else 'NO')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
