"""``mindinsight start``: launch gunicorn detached and return once the server answers."""
import http.client
import os
import subprocess
import sys
import time
from pathlib import Path

from mindinsight.conf import limits
from mindinsight.conf.settings import Settings
from mindinsight.scripts.console import ScriptLog
from mindinsight.scripts.processes import APP_TARGET, is_port_listening, server_processes, summary_base_dir_of

GUNICORN_CONF = Path(__file__).resolve().parent.parent / "backend" / "gunicorn_conf.py"
EXIT_OK, EXIT_FAILED, EXIT_REUSED = 0, 1, 2
POLL_SECONDS = 0.02


def web_address(settings: Settings) -> str:
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    return f"http://{host}:{settings.port}{settings.url_path_prefix}"


def log_paths(settings: Settings) -> dict[str, Path]:
    log_dir = Path(settings.workspace) / "log"
    return {
        "error": log_dir / "gunicorn" / f"error.{settings.port}.log",
        "access": log_dir / "gunicorn" / f"access.{settings.port}.log",
        "console": log_dir / "gunicorn" / f"console.{settings.port}.log",
        "script": log_dir / "scripts" / f"start.{settings.port}.log",
    }


def prepare_workspace(settings: Settings) -> dict[str, Path]:
    """Create the workspace and its log folders (owner-only) and return the log paths."""
    paths = log_paths(settings)
    for path in paths.values():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not os.access(settings.workspace, os.R_OK | os.W_OK | os.X_OK):
        raise PermissionError(f"Workspace {settings.workspace} is not readable, writable and searchable.")
    return paths


def start(settings: Settings) -> int:
    """Start a server for ``settings``; the exit code of the command."""
    os.umask(0o077)
    try:
        paths = prepare_workspace(settings)
    except OSError as exc:
        print(f"Cannot use workspace {settings.workspace}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    log = ScriptLog(paths["script"])

    if is_port_listening(settings.host, settings.port):
        running = server_processes(settings.port)
        if any(summary_base_dir_of(p) == settings.summary_base_dir for p in running):
            log.out(f"Reusing MindInsight on port {settings.port} for {settings.summary_base_dir}.")
            log.out(f"Web address: {web_address(settings)}")
            return EXIT_REUSED
        log.err(f"Port {settings.port} is already in use; stop what runs there or choose another with --port.")
        return EXIT_FAILED

    log.out(f"Workspace: {settings.workspace}")
    log.out(f"Summary base dir: {settings.summary_base_dir}")
    if not os.path.isdir(settings.summary_base_dir):
        log.out(f"Warning: summary base dir {settings.summary_base_dir} does not exist (yet).")

    process = _spawn_gunicorn(settings, paths)
    if _wait_until_serving(settings, process):
        log.out(f"Web address: {web_address(settings)}")
        log.out("service start state: success")
        return EXIT_OK
    if process.poll() is None:
        process.kill()
    log.err("service start state: failed")
    log.err(f"Last lines of {paths['error']}:")
    for line in _tail(paths["error"]) + _tail(paths["console"]):
        log.err("  " + line)
    return EXIT_FAILED


def _spawn_gunicorn(settings: Settings, paths: dict[str, Path]) -> subprocess.Popen:
    bind = f"[{settings.host}]:{settings.port}" if ":" in settings.host else f"{settings.host}:{settings.port}"
    command = [
        sys.executable, "-m", "gunicorn",
        "-c", str(GUNICORN_CONF),
        "-b", bind,
        "--error-logfile", str(paths["error"]),
        "--access-logfile", str(paths["access"]),
        APP_TARGET,
    ]
    env = {**os.environ, **settings.to_env()}
    with open(paths["console"], "ab") as console:
        # A new session: the server outlives this command and the terminal it ran in.
        return subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=console,
                                stderr=subprocess.STDOUT, start_new_session=True, close_fds=True)


def _wait_until_serving(settings: Settings, process: subprocess.Popen) -> bool:
    deadline = time.monotonic() + limits.START_TIMEOUT_SECONDS
    path = settings.url_path_prefix + "/v1/mindinsight/ui-config"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        try:
            conn = http.client.HTTPConnection(settings.host, settings.port, timeout=2)
            conn.request("GET", path)
            status = conn.getresponse().status
            conn.close()
            if status == 200:
                return True
        except OSError:
            pass
        time.sleep(POLL_SECONDS)
    return False


def _tail(path: Path, lines: int = 20) -> list[str]:
    try:
        return path.read_text(errors="replace").splitlines()[-lines:]
    except OSError:
        return []
