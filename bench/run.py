"""MindInsight benchmark: ``python bench/run.py [--quick] [--data-dir D] [--skip-server] [--ui] [--lineage] [--graph]``.

Generates the two logs of issue #3 with our SummaryWriter (cached in the data dir), then
measures through the server's own code and prints one table:

* cold load of each log to "fully loaded", CRC checked (values/s, MB/s, s);
* an idle reload tick over about 1 GB of logs (hard-linked copies in several job dirs);
* RSS after loading both logs (in-process, and of all server processes);
* server figures (a real ``mindinsight start``): start to first 200, first data of a large
  job served, p50/p95/p99 and throughput of ``scalar/metadata`` (1,000 points),
  ``histograms`` and ``train-jobs`` with 32 concurrent clients on loopback;
* image and tensor serving (bench/images_tensors_bench.py): ``image/single-image`` at 32
  clients, slices of a 10,000,000-value tensor once loaded;
* with ``--ui``: cold page loads in headless Chromium (bench/ui_bench.py): summary list visible,
  first dashboard and scalar-page chart drawn, initial JS of the dashboard;
* with ``--lineage``: lineage queries over 999 jobs with ``_lineage`` files (bench/lineage_bench.py);
* with ``--graph``: the computational graph of a ResNet-50 log served by a real server: top level,
  every scope's children, name search (bench/graph_http_bench.py).

Each in-process figure runs in a fresh child process (bench/inproc.py); the load generator
(bench/loadgen.py) runs in its own process so it never shares the server's GIL.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import gen  # noqa: E402

FULL = {"scalar_steps": 200_000, "scalar_tags": 50, "image_steps": 4_000, "copies": 3}
QUICK = {"scalar_steps": 20_000, "scalar_tags": 50, "image_steps": 400, "copies": 3}


def machine() -> str:
    model = platform.processor() or "?"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        model = next(
            (line.split(":", 1)[1].strip() for line in out.splitlines() if line.startswith("Model name")), model
        )
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs, {model}, Python {platform.python_version()}"


def load_average() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def child(*args, timeout=1800) -> dict:
    """Run bench/inproc.py in a fresh interpreter; its last stdout line is JSON."""
    proc = subprocess.run(
        [sys.executable, os.path.join(HERE, "inproc.py"), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"inproc {args} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def prepare(data_dir: str, params: dict) -> dict:
    """Generate (or reuse) the logs and lay out the base dirs the figures need."""
    t0 = time.perf_counter()
    scalar_job = gen.scalar_log(data_dir, params["scalar_steps"], params["scalar_tags"])
    image_job = gen.image_histogram_log(data_dir, params["image_steps"])
    key = f"{os.path.basename(scalar_job)}+{os.path.basename(image_job)}"
    bases = os.path.join(data_dir, "bases", key)
    layout = {
        "scalar": {"scalars": scalar_job},
        "image": {"imghist": image_job},
        "both": {"scalars": scalar_job, "imghist": image_job},
        "many": {
            f"{name}{index}": job
            for index in range(params["copies"])
            for name, job in (("scalars", scalar_job), ("imghist", image_job))
        },
    }
    dirs = {}
    for name, jobs in layout.items():
        base = os.path.join(bases, name)
        for job_name, source in jobs.items():
            gen.linked_copy(source, os.path.join(base, job_name))
        dirs[name] = base
    dirs["generate_seconds"] = time.perf_counter() - t0
    dirs["scalar_values"] = params["scalar_steps"] * params["scalar_tags"]
    dirs["image_values"] = params["image_steps"] * 24
    return dirs


def fmt_rate(value: float) -> str:
    return f"{value / 1e6:.2f} M" if value >= 1e6 else f"{value / 1e3:.1f} k"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small logs (1/10 of the steps), fast run")
    parser.add_argument("--data-dir", default=os.path.join(HERE, ".data"), help="where logs are cached")
    parser.add_argument("--skip-server", action="store_true", help="in-process figures only")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds per latency run")
    parser.add_argument("--clients", type=int, default=32, help="concurrent clients per latency run")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each cold load (the median is shown)")
    parser.add_argument("--starts", type=int, default=3, help="server starts for the start-up figures")
    parser.add_argument(
        "--ui", action="store_true", help="also the UI figures (needs the built UI, /usr/bin/chromium and playwright)"
    )
    parser.add_argument(
        "--lineage",
        action="store_true",
        help="also the lineage figures (999 jobs with _lineage files, bench/lineage_bench.py)",
    )
    parser.add_argument(
        "--graph",
        action="store_true",
        help="also the graph figures over HTTP (ResNet-50 test fixture, bench/graph_http_bench.py)",
    )
    parser.add_argument("--ui-runs", type=int, default=5, help="cold page loads per UI figure (median shown)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    params = QUICK if args.quick else FULL
    os.makedirs(args.data_dir, exist_ok=True)

    print(f"machine: {machine()}; load average before: {load_average()}", flush=True)
    dirs = prepare(args.data_dir, params)
    print(f"logs ready in {dirs['generate_seconds']:.1f} s (cached in {args.data_dir})", flush=True)
    rows = []

    for name, label, values, target in (
        ("scalar", "scalar log cold load (CRC on)", dirs["scalar_values"], 5.0),
        ("image", "image+histogram log cold load", dirs["image_values"], 2.0),
    ):
        runs = sorted((child("cold", dirs[name]) for _ in range(args.repeat)), key=lambda r: r["seconds"])
        result = runs[len(runs) // 2]  # the median run
        mb = result["bytes"] / 1e6
        detail = (
            f"{result['seconds']:.2f} s, {mb:.0f} MB ({result['bytes'] / 2**20:.0f} MiB), "
            f"{fmt_rate(values / result['seconds'])} values/s, {mb / result['seconds']:.0f} MB/s"
            + (
                f" (median of {len(runs)}, {runs[0]['seconds']:.2f}..{runs[-1]['seconds']:.2f} s)"
                if len(runs) > 1
                else ""
            )
        )
        scale = params["scalar_steps"] / FULL["scalar_steps"]  # quick: 1/10 of the data, 1/10 of the time
        rows.append(
            (
                label,
                detail,
                f"<= {target * scale:g} s" + (" (1/10 size)" if args.quick else ""),
                result["seconds"] <= target * scale,
            )
        )
        print(f"  {label}: {detail}", flush=True)

    both = child("cold", dirs["both"])
    rows.append(
        (
            "RSS after both loads, in-process",
            f"{both['rss_settled_mb']:.0f} MB settled, {both['rss_peak_mb']:.0f} MB peak",
            "<= 200 MB",
            both["rss_settled_mb"] <= 200,
        )
    )
    print(f"  RSS in-process: {rows[-1][1]}", flush=True)

    ticks = child("tick", dirs["many"], "20")
    rows.append(
        (
            "idle reload tick",
            f"{ticks['tick_median_ms']:.1f} ms median, {ticks['tick_max_ms']:.1f} ms max "
            f"over {ticks['bytes'] / 1e9:.2f} GB in {ticks['jobs']} jobs",
            "<= 20 ms",
            ticks["tick_max_ms"] <= 20,
        )
    )
    print(f"  reload tick: {rows[-1][1]}", flush=True)

    figures = {"machine": machine(), "quick": args.quick, "rows": rows}
    if not args.skip_server:
        import server_bench

        rows.extend(server_bench.run(dirs, duration=args.duration, clients=args.clients, starts=args.starts))
        import images_tensors_bench

        rows.extend(images_tensors_bench.run(dirs, args.data_dir, duration=args.duration, clients=args.clients))
    if args.lineage:
        import lineage_bench

        rows.extend(lineage_bench.run(args.data_dir))
    if args.graph:
        import graph_http_bench

        rows.extend(graph_http_bench.run())
    if args.ui:
        import ui_bench

        rows.extend(ui_bench.run(args.ui_runs))

    print(f"load average after: {load_average()}")
    print()
    print("| figure | measured | target | met |")
    print("|---|---|---|---|")
    for label, detail, target, met in rows:
        mark = "n/a" if met is None else ("yes" if met else "NO")
        print(f"| {label} | {detail} | {target} | {mark} |")
    if args.json:
        with open(args.json, "w") as stream:
            json.dump(figures, stream, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
