"""``%load_ext mindinsight`` and ``%mindinsight`` in a real notebook on a real Jupyter kernel.

nbclient runs the cells one by one on ipykernel's ``python3`` kernel, which runs on this
interpreter (the test toolchain's venv under the test command). The kernel imports the package
under test: the built wheel's install when the test command names it (its venv holds no Jupyter,
so its site-packages come first on the kernel's path; the two locks pin the same versions of
what they share), else the source tree. The server the magic starts runs the same package.
"""

import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import requests
from nbclient import NotebookClient

from mindinsight.scripts.processes import is_port_listening, server_processes
from tests.helpers.fixtures import copy_job
from tests.helpers.server import ROOT, TEST_COMMAND_VARIABLE, free_port, run_cli

JOBS = ("a_lenet_collector", "b_summary_ops")


def installed_python() -> Path | None:
    """The interpreter of the venv holding the built wheel, under the test command."""
    installed = os.environ.get(TEST_COMMAND_VARIABLE)
    return Path(installed).parent / "python" if installed else None


def package_path() -> Path:
    """The folder the kernel imports ``mindinsight`` from (see the module docstring)."""
    python = installed_python()
    if python is None:
        return ROOT
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(purelib.stdout.strip())


class Notebook:
    """A live kernel that runs one cell at a time and hands back its outputs."""

    def __init__(self, client: NotebookClient):
        self.client = client

    def run(self, source: str) -> list[dict]:
        """The outputs of a new cell holding ``source``; a cell that fails (a traceback) fails the test."""
        cell = nbformat.v4.new_code_cell(source)
        self.client.nb.cells.append(cell)
        return self.client.execute_cell(cell, len(self.client.nb.cells) - 1)["outputs"]


def text_of(outputs: list[dict], stream: str | None = None) -> str:
    return "".join(o["text"] for o in outputs if o["output_type"] == "stream" and stream in (None, o["name"]))


def frames_of(outputs: list[dict]) -> list[str]:
    return [o["data"]["text/html"] for o in outputs if o["output_type"] == "display_data" and "text/html" in o["data"]]


@pytest.fixture
def notebook(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(package_path())}
    env.pop("MINDINSIGHT_PORT", None)
    client = NotebookClient(nbformat.v4.new_notebook(), kernel_name="python3", timeout=120, startup_timeout=120)
    # The kernel runs outside the checkout, so only PYTHONPATH says which mindinsight it gets.
    with client.setup_kernel(env=env, cwd=str(tmp_path)):
        yield Notebook(client)


def test_magic_starts_shows_reuses_and_explains(notebook, tmp_path):
    base, other_base, workspace = tmp_path / "base", tmp_path / "other", tmp_path / "ws"
    for name in JOBS:
        copy_job(name, base / name)
    other_base.mkdir()
    (tmp_path / "a_file").write_text("not a directory")
    port, unused_port = free_port(), free_port()
    options = f"--workspace {workspace} --reload-interval 1"

    where = notebook.run("import sys, mindinsight; print(sys.executable); print(mindinsight.__file__)")
    kernel_python, package_file = text_of(where).split()
    assert kernel_python == sys.executable
    assert Path(package_file).resolve().is_relative_to(package_path().resolve())
    assert notebook.run("%load_ext mindinsight") == []

    try:
        started_with = f"--summary-base-dir {base} --port {port} {options}"
        started = notebook.run(f"%mindinsight {started_with}")
        address = f"http://127.0.0.1:{port}"
        assert frames_of(started) and f'<a href="{address}"' in frames_of(started)[0], started
        assert f"Web address: {address}" in text_of(started, "stdout")
        jobs = requests.get(f"{address}/v1/mindinsight/datavisual/train-jobs", timeout=30).json()
        assert sorted(job["train_id"] for job in jobs["train_jobs"]) == [f"./{name}" for name in JOBS]
        master = {proc.pid for proc in server_processes(port)}

        # Without --port: the server serving that base dir; with its port: start's own reuse.
        for again in (f"%mindinsight --summary-base-dir {base} {options}", f"%mindinsight {started_with}"):
            reused = notebook.run(again)
            assert f"Reusing MindInsight on port {port}" in text_of(reused, "stdout"), reused
            assert f'<a href="{address}"' in frames_of(reused)[0]
        assert {proc.pid for proc in server_processes(port)} == master

        listed = text_of(notebook.run("%mindinsight --list"), "stdout")
        assert any(line.split()[:1] == [str(port)] and str(base) in line for line in listed.splitlines()), listed

        # Each problem is one sentence on stderr: no traceback (execute_cell would raise), no frame.
        problems = {
            f"--summary-base-dir {tmp_path / 'missing'} --port {unused_port}": "is not a directory",
            f"--summary-base-dir {tmp_path / 'a_file'} --port {unused_port}": "is not a directory",
            f"--summary-base-dir {other_base} --port {port}": f"Port {port} is already in use",
            "--port 0": "port must be in 1..65535",
            "--summary-base-dir '": "cannot read the options",
        }
        for arguments, message in problems.items():
            outputs = notebook.run(f"%mindinsight {arguments} {options}")
            assert message in text_of(outputs, "stderr"), (arguments, outputs)
            assert not frames_of(outputs) and "Traceback" not in text_of(outputs)
        assert not is_port_listening("127.0.0.1", unused_port)
    finally:
        stopped = run_cli("stop", "--port", str(port), "--workspace", str(workspace))
    assert stopped.returncode == 0, stopped.stderr
    assert str(base) not in text_of(notebook.run("%mindinsight --list"))


def test_importing_the_package_needs_no_ipython():
    """``import mindinsight`` and ``running_servers()`` work where IPython is absent or unimported."""
    python = installed_python() or Path(sys.executable)
    check = (
        "import sys, mindinsight, mindinsight.cli, mindinsight.notebook\n"
        "assert 'IPython' not in sys.modules, 'IPython imported'\n"
        "assert isinstance(mindinsight.notebook.running_servers(), list)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)} if installed_python() is None else None
    result = subprocess.run([str(python), "-c", check], capture_output=True, text=True, cwd="/", env=env)
    assert result.returncode == 0, result.stderr
