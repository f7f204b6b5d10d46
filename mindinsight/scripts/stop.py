"""``mindinsight stop``: end every process of the server listening on a port."""

import signal
from pathlib import Path

import psutil

from mindinsight.conf import limits
from mindinsight.conf.settings import Settings
from mindinsight.scripts.console import ScriptLog
from mindinsight.scripts.processes import server_processes

EXIT_OK, EXIT_NOT_FOUND = 0, 1


def stop(port: int, workspace: str | None = None) -> int:
    """Stop the MindInsight server on ``port``; the exit code of the command."""
    workspace = workspace or Settings.from_env().workspace
    log_path = Path(workspace) / "log" / "scripts" / f"stop.{port}.log"
    log_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    log = ScriptLog(log_path)

    processes = server_processes(port)
    if not processes:
        log.err(f"No MindInsight service is listening on port {port}.")
        return EXIT_NOT_FOUND
    log.out(f"Stopping MindInsight on port {port} (pids {', '.join(str(p.pid) for p in processes)}).")
    for proc in processes:
        _signal(proc, signal.SIGINT)  # gunicorn's quick shutdown: master and workers exit now
    _, alive = psutil.wait_procs(processes, timeout=limits.STOP_GRACE_SECONDS)
    for proc in alive:
        _signal(proc, signal.SIGKILL)
    _, alive = psutil.wait_procs(alive, timeout=limits.STOP_GRACE_SECONDS)
    if alive:
        log.err(f"Could not stop pids {', '.join(str(p.pid) for p in alive)}.")
        return EXIT_NOT_FOUND
    log.out("Stop mindinsight service successfully")
    return EXIT_OK


def _signal(proc: psutil.Process, sig: int) -> None:
    try:
        proc.send_signal(sig)
    except psutil.NoSuchProcess:
        pass
