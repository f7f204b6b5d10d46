"""Start the real server through the ``mindinsight`` CLI for system and browser tests.

With ``MINDINSIGHT_TEST_COMMAND`` set (the test command sets it to the ``mindinsight`` script of
a clean venv holding the built wheel), every server and CLI call of the tests runs that installed
package, from a folder outside this checkout; without it, ``python -m mindinsight`` of the source
tree runs, which suits a quick run while developing.
"""

import contextlib
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]


# Servers of the tests listen below the kernel's ephemeral range (32768+ on Linux), where no client
# socket is handed a port between our choice and the server's bind; each pytest-xdist worker
# draws from its own block, so two workers never pick the same port.
PORT_BLOCKS_START, PORT_BLOCK_SIZE, PORT_BLOCKS = 20_000, 1_000, 12


def _port_block() -> range:
    """This test process's block of ports: by xdist worker number (``gw3`` -> 3), else the first."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    index = int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else 0
    start = PORT_BLOCKS_START + (index % PORT_BLOCKS) * PORT_BLOCK_SIZE
    return range(start, start + PORT_BLOCK_SIZE)


def free_port() -> int:
    """A TCP port on loopback that nothing listens on right now, from this process's block.

    Random within the block, so test sessions run side by side (not under xdist) rarely meet.
    """
    block = _port_block()
    for port in random.sample(block, len(block)):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {block.start}..{block.stop - 1}")


TEST_COMMAND_VARIABLE = "MINDINSIGHT_TEST_COMMAND"


def installed_command() -> str | None:
    """The installed ``mindinsight`` script under test: ``MINDINSIGHT_TEST_COMMAND``, else on PATH."""
    return os.environ.get(TEST_COMMAND_VARIABLE) or shutil.which("mindinsight")


def mindinsight_command() -> tuple[list[str], Path]:
    """The command line that runs ``mindinsight`` for the tests, and the folder to run it in."""
    installed = os.environ.get(TEST_COMMAND_VARIABLE)
    if installed:
        # Outside the checkout, so nothing can import the source tree instead of the install.
        return [installed], Path(tempfile.gettempdir())
    return [sys.executable, "-m", "mindinsight"], ROOT


def run_cli(*args: str, env: dict | None = None, timeout: float = 60, prefix=()) -> subprocess.CompletedProcess:
    """Run ``mindinsight <args>`` (see ``mindinsight_command``), after ``prefix``, and capture its output."""
    command, cwd = mindinsight_command()
    return subprocess.run([*prefix, *command, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def obeying_file_modes() -> list[str]:
    """A command prefix under which file modes bind the server as they bind any user.

    Root reads a ``chmod 000`` file anyway (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH): run as root,
    the server keeps its uid (it still reaches the interpreter under /root) but loses those two
    capabilities for good, so it meets a real EACCES. Other users need nothing.
    """
    if os.geteuid() != 0:
        return []
    dropped = "-dac_override,-dac_read_search"
    return ["setpriv", f"--bounding-set={dropped}", f"--inh-caps={dropped}"]


@dataclass
class Server:
    """A running server: its base URL (with the url path prefix) and port.

    With a ``token`` (the server asks for one), ``get`` and ``post`` send it as a Bearer header.
    """

    url: str
    port: int
    workspace: Path
    token: str = ""
    start_output: str = ""
    stopped: bool = False

    @property
    def api(self) -> str:
        return self.url + "/v1/mindinsight"

    def _with_token(self, kwargs: dict) -> dict:
        if self.token:
            kwargs["headers"] = {"Authorization": f"Bearer {self.token}", **kwargs.get("headers", {})}
        return kwargs

    def get(self, path: str, **kwargs) -> requests.Response:
        return requests.get(self.api + path, timeout=30, **self._with_token(kwargs))

    def post(self, path: str, **kwargs) -> requests.Response:
        return requests.post(self.api + path, timeout=30, **self._with_token(kwargs))

    def stop(self) -> None:
        """``mindinsight stop`` now, for a test that watches what the pages do when it goes away."""
        stopped = run_cli("stop", "--port", str(self.port), "--workspace", str(self.workspace))
        if stopped.returncode != 0:
            raise RuntimeError(f"mindinsight stop failed:\n{stopped.stdout}\n{stopped.stderr}")
        self.stopped = True


# Called with the server before ``running_server`` stops it at the end of its block: browser tests
# take their pages off it first, so the pages' next polls do not fail on a server that is gone.
_BEFORE_STOP: list[Callable[[Server], None]] = []


@contextlib.contextmanager
def before_each_stop(callback: Callable[[Server], None]):
    """Within this block, ``callback(server)`` runs before any ``running_server`` block stops its server."""
    _BEFORE_STOP.append(callback)
    try:
        yield
    finally:
        _BEFORE_STOP.remove(callback)


@contextlib.contextmanager
def running_server(
    summary_base_dir,
    workspace,
    reload_interval: int = 3,
    url_path_prefix: str = "",
    host: str = "",
    token: str = "",
    obey_file_modes: bool = False,
    options: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
):
    """``mindinsight start`` on a free port; ``mindinsight stop`` on exit.

    ``host`` binds another address (the server is still reached on 127.0.0.1); ``token`` is
    passed with ``--token``. The token the server asks for (given, or the one ``start`` made
    up and printed) is the ``Server``'s ``token``. ``obey_file_modes``: the server cannot read
    what file modes forbid, even when the tests run as root (``obeying_file_modes``).
    ``options``: further command-line options of ``start`` (``--allowed-host``, ...).
    ``env``: variables added to the server's environment only (``AWS_ENDPOINT_URL``, ...).
    """
    for _attempt in range(3):  # another process may grab the free port before gunicorn does
        port = free_port()
        args = [
            "start",
            "--summary-base-dir",
            str(summary_base_dir),
            "--workspace",
            str(workspace),
            "--port",
            str(port),
            "--reload-interval",
            str(reload_interval),
        ]
        if url_path_prefix:
            args += ["--url-path-prefix", url_path_prefix]
        if host:
            args += ["--host", host]
        if token:
            args += ["--token", token]
        args += list(options)
        prefix = obeying_file_modes() if obey_file_modes else ()
        started = run_cli(*args, env={**os.environ, **(env or {})}, prefix=prefix)
        if started.returncode == 0:
            break
        if "already in use" not in started.stderr:
            raise RuntimeError(f"mindinsight start failed:\n{started.stdout}\n{started.stderr}")
    else:
        raise RuntimeError("no free port for mindinsight start")
    printed = re.search(r"[?&]token=([A-Za-z0-9_.~-]+)", started.stdout)
    server = Server(
        url=f"http://127.0.0.1:{port}{url_path_prefix.rstrip('/')}",
        port=port,
        workspace=Path(workspace),
        token=printed.group(1) if printed else "",
        start_output=started.stdout,
    )
    try:
        yield server
    finally:
        if not server.stopped:
            for callback in list(_BEFORE_STOP):
                callback(server)
            server.stop()
