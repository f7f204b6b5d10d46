"""A real PostgreSQL (Debian's ``postgresql`` package) on a private port and data dir, for system tests.

``initdb`` and ``pg_ctl`` refuse to run as root: run as root, they run as ``nobody`` (``setpriv``),
and the data dir is a fresh folder of ``nobody``'s directly under the temporary directory, since
pytest's own folders are closed to other users. It is removed by ``running_postgres``.
"""

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.helpers.server import free_port


def binaries() -> Path:
    """The newest ``/usr/lib/postgresql/<major>/bin``."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda path: int(path.split("/")[4]))
    if not found:
        raise RuntimeError("PostgreSQL is not installed: apt-get install -y postgresql (build/run_tests.sh does)")
    return Path(found[-1]).parent


def _as_postgres_user() -> list[str]:
    if os.geteuid() != 0:
        return []
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--reset-env"]


@dataclass
class Postgres:
    """One database server: ``url`` for ``--database-url``; ``stop``/``start``/``restart`` it."""

    data_dir: Path
    port: int

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        command = [*_as_postgres_user(), str(binaries() / args[0]), *args[1:]]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd="/")
        if done.returncode != 0:
            log = self.data_dir.parent / "postgres.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(args[:2])} failed:\n{done.stdout}\n{done.stderr}\n{tail}")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data_dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data_dir),
            "-o",
            options,
            "-l",
            str(self.data_dir.parent / "postgres.log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data_dir), "-m", "fast", "-w", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()


@contextlib.contextmanager
def running_postgres():
    """A fresh cluster (trust authentication, user ``postgres``) on a free loopback port; removed on exit."""
    root = Path(tempfile.mkdtemp(prefix="mi-test-pg-"))
    if os.geteuid() == 0:
        nobody = pwd.getpwnam("nobody")
        os.chown(root, nobody.pw_uid, nobody.pw_gid)
    server = Postgres(root / "data", free_port())
    try:
        server._run("initdb", "-D", str(server.data_dir), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        server.start()
        try:
            yield server
        finally:
            with contextlib.suppress(RuntimeError):
                server.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)
