"""``mindinsight start``: launch gunicorn detached and return once the server answers.

The server process imports the installed ``mindinsight`` only, whatever directory the command
runs in: a source checkout (which holds a ``mindinsight/`` folder) must not lend the server its
code. Python puts the current directory first on ``sys.path`` for ``python -m`` and gunicorn
puts its ``--chdir`` there, so gunicorn runs in the workspace's own log folder (created here,
owner-only, holding only logs), and with ``-P`` (Python >= 3.11) no directory is prepended.

Bound beyond loopback, the server asks for an access token (``backend/access.py``): the one
given with ``--token`` / ``MINDINSIGHT_TOKEN``, else one made up here and printed in the web
address (``?token=``). The start log file gets the address without it.
"""

import dataclasses
import os
import subprocess
import sys
import time
from pathlib import Path

from mindinsight.conf import limits
from mindinsight.conf.settings import Settings, is_loopback
from mindinsight.format.object_store import MissingExtra, file_system_class, is_remote
from mindinsight.scripts.console import ScriptLog
from mindinsight.scripts.processes import (
    APP_TARGET,
    is_port_listening,
    server_processes,
    setting_of,
    summary_base_dir_of,
)

GUNICORN_CONF = Path(__file__).resolve().parent.parent / "backend" / "gunicorn_conf.py"
EXIT_OK, EXIT_FAILED, EXIT_REUSED = 0, 1, 2
POLL_SECONDS = 0.02


def web_address(settings: Settings, token: str | None = None) -> str:
    """The address to open; with ``token`` (default: the settings') it carries ``?token=``."""
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    address = f"http://{host}:{settings.port}{settings.url_path_prefix}"
    token = settings.token if token is None else token
    return f"{address}/?token={token}" if token else address


def with_token(settings: Settings) -> Settings:
    """``settings`` with a new random access token when bound beyond loopback without one."""
    if settings.token or is_loopback(settings.host):
        return settings
    import secrets  # only here: with hmac and OpenSSL's hashes it delays every other start by ~4 ms

    return dataclasses.replace(settings, token=secrets.token_urlsafe(limits.GENERATED_TOKEN_BYTES))


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
        same = [p for p in running if summary_base_dir_of(p) == settings.summary_base_dir]
        if same:
            log.out(f"Reusing MindInsight on port {settings.port} for {settings.summary_base_dir}.")
            _print_address(log, settings, setting_of(same[0], "token") or "")
            return EXIT_REUSED
        log.err(f"Port {settings.port} is already in use; stop what runs there or choose another with --port.")
        return EXIT_FAILED

    log.out(f"Workspace: {settings.workspace}")
    log.out(f"Summary base dir: {settings.summary_base_dir}")
    if is_remote(settings.summary_base_dir):
        try:
            file_system_class(settings.summary_base_dir)
        except MissingExtra as error:
            log.err(f"Cannot read {settings.summary_base_dir}: {error}")
            return EXIT_FAILED
    elif not os.path.isdir(settings.summary_base_dir):
        log.out(f"Warning: summary base dir {settings.summary_base_dir} does not exist (yet).")

    settings = with_token(settings)
    process = _spawn_gunicorn(settings, paths)
    if _wait_until_serving(settings, process):
        _print_address(log, settings, settings.token)
        log.out("service start state: success")
        return EXIT_OK
    if process.poll() is None:
        process.kill()
    log.err("service start state: failed")
    log.err(f"Last lines of {paths['error']}:")
    for line in _tail(paths["error"]) + _tail(paths["console"]):
        log.err("  " + line)
    return EXIT_FAILED


def _print_address(log: ScriptLog, settings: Settings, token: str) -> None:
    log.out(
        f"Web address: {web_address(settings, token)}",
        logged=f"Web address: {web_address(settings, '<token>' if token else '')}",
    )
    if token:
        log.out(
            "Every request needs the access token: the address above sets it in the browser; "
            "other clients send 'Authorization: Bearer <token>'."
        )


def _spawn_gunicorn(settings: Settings, paths: dict[str, Path]) -> subprocess.Popen:
    bind = f"[{settings.host}]:{settings.port}" if ":" in settings.host else f"{settings.host}:{settings.port}"
    server_dir = paths["error"].parent  # see the module docstring: no package folder there
    safe_path = ["-P"] if sys.version_info >= (3, 11) else []
    command = [
        sys.executable,
        *safe_path,
        "-m",
        "gunicorn",
        "-c",
        str(GUNICORN_CONF),
        "--chdir",
        str(server_dir),
        "-b",
        bind,
        "--error-logfile",
        str(paths["error"]),
        "--access-logfile",
        str(paths["access"]),
        APP_TARGET,
    ]
    env = {**os.environ, **settings.to_env()}
    with open(paths["console"], "ab") as console:
        # A new session: the server outlives this command and the terminal it ran in.
        return subprocess.Popen(
            command,
            env=env,
            cwd=server_dir,
            stdin=subprocess.DEVNULL,
            stdout=console,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            close_fds=True,
        )


def _wait_until_serving(settings: Settings, process: subprocess.Popen) -> bool:
    import http.client  # here, while the server boots on another core, not before spawning it

    deadline = time.monotonic() + limits.START_TIMEOUT_SECONDS
    path = settings.url_path_prefix + "/v1/mindinsight/ui-config"
    headers = {"Authorization": f"Bearer {settings.token}"} if settings.token else {}
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        try:
            conn = http.client.HTTPConnection(settings.host, settings.port, timeout=2)
            conn.request("GET", path, headers=headers)
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
