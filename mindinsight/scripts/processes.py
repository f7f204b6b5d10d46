"""Find the gunicorn processes that serve MindInsight on a port.

psutil is imported by the functions that need it: ``mindinsight start`` calls none of them
unless its port is taken, and starts the server sooner without the import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import psutil

# gunicorn is started with this app target; `stop` recognises our processes by it.
APP_TARGET = "mindinsight.backend.application:create_server()"


def listening_pids(port: int) -> set[int]:
    """Pids of this user's processes holding a LISTEN socket on ``port`` (any address)."""
    import psutil

    pids = set()
    for conn in psutil.net_connections(kind="inet"):
        if conn.status == psutil.CONN_LISTEN and conn.laddr and conn.laddr.port == port and conn.pid:
            pids.add(conn.pid)
    return pids


def is_port_listening(host: str, port: int) -> bool:
    """Whether something accepts TCP connections on ``host:port``."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def _is_ours(proc: psutil.Process) -> bool:
    import psutil

    try:
        return APP_TARGET in " ".join(proc.cmdline())
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return False


def server_processes(port: int) -> list[psutil.Process]:
    """The gunicorn master and all its descendants serving MindInsight on ``port``.

    The worker owns the listening socket as much as the master does; climb from any owner
    to the topmost ancestor that is still ours, then take that process and its children.
    """
    import psutil

    masters = {}
    for pid in listening_pids(port):
        try:
            proc = psutil.Process(pid)
        except psutil.NoSuchProcess:
            continue
        if not _is_ours(proc):
            continue
        parent = proc.parent()
        while parent is not None and _is_ours(parent):
            proc, parent = parent, parent.parent()
        masters[proc.pid] = proc
    found = {}
    for master in masters.values():
        found[master.pid] = master
        try:
            for child in master.children(recursive=True):
                found[child.pid] = child
        except psutil.NoSuchProcess:
            pass
    return list(found.values())


def setting_of(proc: psutil.Process, name: str) -> str | None:
    """A setting a running server was started with (its ``MINDINSIGHT_<NAME>`` variable)."""
    import psutil

    from mindinsight.conf.settings import ENV_PREFIX

    try:
        return proc.environ().get(ENV_PREFIX + name.upper())
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return None


def summary_base_dir_of(proc: psutil.Process) -> str | None:
    """The summary base dir a running server was started with (from its environment)."""
    return setting_of(proc, "summary_base_dir")
