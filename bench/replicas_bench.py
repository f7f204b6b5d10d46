"""Replicas behind nginx (issue #23): throughput of the memory-served routes through
``deploy/nginx-replicas.conf`` in Debian's nginx, against one server.

``python bench/replicas_bench.py [--duration 10] [--clients 32] [--nginx-workers 1] [--json FILE]``

Three set-ups over the tests' fixture logs (``tests/helpers/apps.make_loaded_base``), each server
a real ``mindinsight start`` (own workspace) on a loopback port:

* ``one server``: bench/loadgen.py straight at one server;
* ``one behind nginx``: the deploy config with both upstream lines on that one server;
* ``two behind nginx``: the deploy config as shipped, a second replica on the same base dir.

bench/loadgen.py runs in its own process (closed loop, keep-alive). For every run the CPU seconds
of each party are taken (servers: gunicorn master and its children, nginx: master and workers,
loadgen: its rusage) and divided by the requests answered, so the figures say where the CPU goes
when the machine, not a server, is the limit. Prints the core count and the load average.
"""

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from server_bench import RssSampler  # noqa: E402

from tests.helpers.apps import make_loaded_base  # noqa: E402
from tests.helpers.replicas import DEPLOY_CONF, running_nginx_before, upstream_ports  # noqa: E402
from tests.helpers.server import running_server  # noqa: E402

API = "/v1/mindinsight/datavisual"
ROUTES = {
    "scalar/metadata": f"{API}/scalar/metadata?train_id=./b_summary_ops&tag=loss_op/scalar",
    "train-jobs": f"{API}/train-jobs?offset=0&limit=10",
    "plugins": f"{API}/plugins?train_id=./b_summary_ops",
}
TARGET = 1.8


def server_processes(port: int) -> list[psutil.Process]:
    master = RssSampler(port).find_master()
    if master is None:
        raise RuntimeError(f"no gunicorn master on port {port}")
    return [master, *master.children(recursive=True)]


def nginx_processes(prefix: Path) -> list[psutil.Process]:
    master = psutil.Process(int((prefix / "nginx.pid").read_text()))
    return [master, *master.children(recursive=True)]


def cpu_seconds(processes: list[psutil.Process]) -> float:
    total = 0.0
    for proc in processes:
        with contextlib.suppress(psutil.Error):
            times = proc.cpu_times()
            total += times.user + times.system
    return total


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load(port: int, path: str, clients: int, duration: float, parties: dict[str, list[psutil.Process]]) -> dict:
    """One loadgen run at ``port``; its result plus the CPU seconds per request of every party."""
    before = {name: cpu_seconds(procs) for name, procs in parties.items()}
    loadgen_before = children_cpu()
    command = [sys.executable, str(HERE / "loadgen.py"), "--port", str(port), "--path", path]
    command += ["--clients", str(clients), "--duration", str(duration)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=duration + 120, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"loadgen failed: {done.stderr[-2000:]}")
    result = json.loads(done.stdout)
    if result["errors"] or set(result["statuses"]) != {"200"}:
        raise RuntimeError(f"not every answer was a 200: {result}")
    cpu = {name: cpu_seconds(procs) - before[name] for name, procs in parties.items()}
    cpu["loadgen"] = children_cpu() - loadgen_before
    result["cpu_ms_per_request"] = {name: 1e3 * seconds / result["requests"] for name, seconds in cpu.items()}
    result["cpu_busy"] = sum(cpu.values()) / result["seconds"]  # cores kept busy by the parties
    return result


def warm(port: int, clients: int, parties) -> None:
    for path in ROUTES.values():
        load(port, path, clients, 1.0, parties)


def run(duration: float, clients: int, nginx_workers: int) -> dict:
    figures = {"cores": os.cpu_count(), "load_before": os.getloadavg(), "duration": duration, "clients": clients}
    figures["nginx_workers"] = nginx_workers
    ports_in_conf = upstream_ports(DEPLOY_CONF.read_text())
    with tempfile.TemporaryDirectory(prefix="mi-replicas-bench-") as scratch:
        scratch = Path(scratch)
        base = make_loaded_base(scratch / "base")
        with (
            running_server(base, scratch / "ws_a", reload_interval=3) as first,
            running_server(base, scratch / "ws_b", reload_interval=3) as second,
        ):
            time.sleep(3)  # both have loaded the small fixture logs by now; warm-up runs make sure
            servers = {"server A": server_processes(first.port), "server B": server_processes(second.port)}
            setups = {}
            one = {"server A": servers["server A"]}
            setups["one server"] = (first.port, one, None)
            for name, ports in (
                ("one behind nginx", dict.fromkeys(ports_in_conf, first.port)),
                ("two behind nginx", dict(zip(ports_in_conf, (first.port, second.port), strict=True))),
            ):
                setups[name] = (None, servers if name.startswith("two") else one, ports)
            results = {}
            for name, (port, parties, ports) in setups.items():
                if ports is None:
                    warm(port, clients, parties)
                    results[name] = {
                        route: load(port, path, clients, duration, parties) for route, path in ROUTES.items()
                    }
                    continue
                prefix = scratch / name.replace(" ", "_")
                prefix.mkdir()
                # An access log written per request is part of a real deployment's cost.
                with running_nginx_before(ports, prefix, workers=nginx_workers) as url:
                    nginx_port = int(url.rsplit(":", 1)[1])
                    with_nginx = {**parties, "nginx": nginx_processes(prefix)}
                    warm(nginx_port, clients, with_nginx)
                    results[name] = {
                        route: load(nginx_port, path, clients, duration, with_nginx) for route, path in ROUTES.items()
                    }
    figures["results"] = results
    figures["load_after"] = os.getloadavg()
    return figures


def report(figures: dict) -> None:
    print(
        f"cores: {figures['cores']}, load average before {figures['load_before'][0]:.2f}, "
        f"after {figures['load_after'][0]:.2f}; {figures['clients']} clients, {figures['duration']:.0f} s per run, "
        f"nginx worker_processes {figures['nginx_workers']}"
    )
    results = figures["results"]
    print(f"\n{'route':<16} {'set-up':<18} {'req/s':>8} {'p99 ms':>8} {'cores busy':>10}  CPU ms per request")
    for route in ROUTES:
        for setup, by_route in results.items():
            row = by_route[route]
            parts = ", ".join(f"{name} {ms:.3f}" for name, ms in row["cpu_ms_per_request"].items())
            print(
                f"{route:<16} {setup:<18} {row['throughput']:>8.0f} {row['p99_ms']:>8.1f} "
                f"{row['cpu_busy']:>10.2f}  {parts}"
            )
    print(f"\nratio two behind nginx / one server (target >= {TARGET}):")
    for route in ROUTES:
        one = results["one server"][route]["throughput"]
        two = results["two behind nginx"][route]["throughput"]
        proxied = results["one behind nginx"][route]["throughput"]
        print(f"  {route:<16} measured {two / one:.2f}x  (one behind nginx: {proxied / one:.2f}x)")
    print(
        "\nceilings from the CPU cost per request (a server is one worker process: at most one core each;"
        " every party shares the machine's cores):"
    )
    for route in ROUTES:
        ceilings = ceiling_model(results, route, figures["cores"], figures["nginx_workers"])
        needed = ceilings["cores_for_target"]
        verdict = (
            f"{needed:.1f} cores needed for {TARGET}x"
            if needed != float("inf")
            else f"{TARGET}x out of reach at these costs on any number of cores ({ceilings['capped_by']} caps first)"
        )
        print(
            f"  {route:<16} one server <= {ceilings['one']:.0f} req/s, two behind nginx <= {ceilings['two']:.0f} req/s"
            f" on {figures['cores']} cores: ratio <= {ceilings['ratio']:.2f}x; {verdict}"
        )


def ceiling_model(results: dict, route: str, cores: int, nginx_workers: int) -> dict:
    """Upper bounds of throughput set by CPU alone, from the measured CPU ms per request."""
    single = results["one server"][route]["cpu_ms_per_request"]
    double = results["two behind nginx"][route]["cpu_ms_per_request"]
    one = min(1e3 / single["server A"], cores * 1e3 / sum(single.values()))
    servers = double["server A"] + double["server B"]
    # Each party on cores of its own: two servers, the nginx workers, the one loadgen process.
    caps = {
        "the two servers' one worker each": 2e3 / servers,
        "nginx": nginx_workers * 1e3 / double["nginx"],
        "the one loadgen process": 1e3 / double["loadgen"],
    }
    capped_by = min(caps, key=caps.get)
    unshared = caps[capped_by]
    two = min(unshared, cores * 1e3 / sum(double.values()))
    # Cores for 1.8x: the whole chain's CPU at 1.8 times the rate one server reaches on a core of its own.
    target_rate = TARGET * 1e3 / single["server A"]
    needed = target_rate * sum(double.values()) / 1e3 if unshared >= target_rate else float("inf")
    return {"one": one, "two": two, "ratio": two / one, "cores_for_target": needed, "capped_by": capped_by}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--nginx-workers", type=int, default=1)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    figures = run(args.duration, args.clients, args.nginx_workers)
    report(figures)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
