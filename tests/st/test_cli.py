"""The ``mindinsight`` command: start, stop, version, help, and its failure modes."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
import requests

from mindinsight import __version__
from mindinsight.scripts.processes import APP_TARGET
from tests.helpers.fixtures import copy_job
from tests.helpers.server import TEST_COMMAND_VARIABLE, free_port, installed_command, run_cli, running_server


def our_processes(port: int) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        cmdline = " ".join(proc.info["cmdline"] or [])
        if APP_TARGET in cmdline and f":{port}" in cmdline:
            found.append(proc)
    return found


@pytest.fixture
def base(tmp_path):
    copy_job("b_summary_ops", tmp_path / "base" / "b_summary_ops")
    return tmp_path / "base"


def test_server_runs_the_package_under_test(base, tmp_path):
    """The server's processes run the installed wheel's venv when the test command names one.

    Without ``MINDINSIGHT_TEST_COMMAND`` they run this interpreter (the source tree).
    """
    installed = os.environ.get(TEST_COMMAND_VARIABLE)
    # A venv's bin/python is a link to the base interpreter, so the unresolved argv[0] tells the venv.
    expected_prefix = Path(installed).parent.parent if installed else Path(sys.executable).parent.parent
    with running_server(base, tmp_path / "ws") as server:
        processes = our_processes(server.port)
        assert processes
        for proc in processes:
            assert Path(proc.cmdline()[0]).parent.parent == expected_prefix, (proc.cmdline(), expected_prefix)
            assert "PYTHONPATH" not in proc.environ()


def test_version_and_help():
    assert run_cli("--version").stdout.strip() == f"mindinsight {__version__}"
    for args in (("--help",), ("help",), ()):
        result = run_cli(*args)
        assert result.returncode == 0 and "start" in result.stdout and "stop" in result.stdout
    start_help = run_cli("start", "--help").stdout
    for option in (
        "--summary-base-dir",
        "--port",
        "--workspace",
        "--reload-interval",
        "--url-path-prefix",
        "--host",
        "--token",
        "--allowed-host",
        "--trusted-origin",
    ):
        assert option in start_help


def test_console_script_is_installed():
    script = installed_command()
    assert script, "the mindinsight command should be installed (pip install, or MINDINSIGHT_TEST_COMMAND)"
    result = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == f"mindinsight {__version__}"


@pytest.mark.parametrize(
    "args,message",
    [
        (("--port", "0"), "port must be in 1..65535"),
        (("--port", "http"), "port must be an integer"),
        (("--reload-interval", "301"), "reload interval must be in 0..300"),
        (("--url-path-prefix", "/a/../b"), "may not be '.' or '..'"),
        (("--url-path-prefix", "/a b"), "url path prefix"),
        (("--token", "short"), "access token must be 16..256 characters"),
        (("--token", "with space 0123456789"), "access token must be"),
        (("--token", ""), "access token may not be empty"),
    ],
)
def test_invalid_options_are_refused(args, message, tmp_path):
    result = run_cli("start", "--workspace", str(tmp_path / "ws"), *args)
    assert result.returncode == 2 and message in result.stderr


def test_start_serves_logs_then_stop_ends_every_process(base, tmp_path):
    workspace = tmp_path / "ws"
    with running_server(base, workspace) as server:
        processes = our_processes(server.port)
        assert len(processes) == 2  # gunicorn master and its single worker
        assert requests.get(server.url + "/", timeout=30).status_code in (200, 404)
        assert server.get("/datavisual/train-jobs").json()["total"] == 1
        again = run_cli(
            "start", "--summary-base-dir", str(base), "--workspace", str(workspace), "--port", str(server.port)
        )
        assert again.returncode == 2 and "Reusing MindInsight" in again.stdout
        other = run_cli(
            "start", "--summary-base-dir", str(tmp_path), "--workspace", str(workspace), "--port", str(server.port)
        )
        assert other.returncode == 1 and "already in use" in other.stderr
    psutil.wait_procs(processes, timeout=10)
    assert not any(proc.is_running() for proc in processes)
    assert our_processes(server.port) == []
    logs = workspace / "log"
    assert "start to listening" in (logs / "gunicorn" / f"error.{server.port}.log").read_text()
    assert "train-jobs" in (logs / "gunicorn" / f"access.{server.port}.log").read_text()
    assert "service start state: success" in (logs / "scripts" / f"start.{server.port}.log").read_text()
    assert "Stop mindinsight service successfully" in (logs / "scripts" / f"stop.{server.port}.log").read_text()
    assert oct(workspace.stat().st_mode & 0o777) == oct(0o700)


def test_stop_without_server_fails_clearly(tmp_path):
    result = run_cli("stop", "--port", str(free_port()), "--workspace", str(tmp_path / "ws"))
    assert result.returncode == 1 and "No MindInsight service is listening" in result.stderr


def test_port_taken_by_another_program(base, tmp_path):
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        result = run_cli(
            "start", "--summary-base-dir", str(base), "--workspace", str(tmp_path / "ws"), "--port", str(port)
        )
    assert result.returncode == 1 and f"Port {port} is already in use" in result.stderr
    assert our_processes(port) == []


def test_settings_from_environment_and_url_path_prefix(base, tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "MINDINSIGHT_PORT": str(port),
        "MINDINSIGHT_SUMMARY_BASE_DIR": str(base),
        "MINDINSIGHT_WORKSPACE": str(tmp_path / "ws"),
        "MINDINSIGHT_URL_PATH_PREFIX": "/mi/board",
    }
    started = run_cli("start", env=env)
    try:
        assert started.returncode == 0, started.stderr
        assert f"Web address: http://127.0.0.1:{port}/mi/board" in started.stdout
        api = f"http://127.0.0.1:{port}/mi/board/v1/mindinsight/datavisual/train-jobs"
        assert requests.get(api, timeout=30).json()["train_jobs"][0]["train_id"] == "./b_summary_ops"
        unprefixed = requests.get(f"http://127.0.0.1:{port}/v1/mindinsight/datavisual/train-jobs", timeout=30)
        assert unprefixed.status_code == 404 and unprefixed.json()["error_code"] == "50545001"
    finally:
        stopped = run_cli("stop", env=env)
    assert stopped.returncode == 0 and our_processes(port) == []


def test_bad_environment_value_is_reported(tmp_path):
    result = run_cli("start", env={**os.environ, "MINDINSIGHT_PORT": "eighty"})
    assert result.returncode == 2 and "MINDINSIGHT_" in result.stderr


def test_bad_token_in_the_environment_is_reported(tmp_path):
    result = run_cli("start", "--workspace", str(tmp_path / "ws"), env={**os.environ, "MINDINSIGHT_TOKEN": "a;b"})
    assert result.returncode == 2 and "MINDINSIGHT_" in result.stderr and "access token" in result.stderr


def test_start_in_a_source_checkout_serves_the_installed_package(base, tmp_path):
    """Run in a folder holding a ``mindinsight/`` package (as a checkout does), the server must
    import the installed package: this one announces itself in a file and refuses to load."""
    checkout = tmp_path / "checkout"
    fake = checkout / "mindinsight"
    fake.mkdir(parents=True)
    announced = tmp_path / "fake-imported"
    (fake / "__init__.py").write_text(
        f"open({str(announced)!r}, 'w').write('imported')\n"
        "raise ImportError('the checkout folder, not the installed mindinsight')\n"
    )
    (fake / "backend").mkdir()
    (fake / "backend" / "__init__.py").write_text("")
    port, workspace = free_port(), tmp_path / "ws"
    script = installed_command()
    started = subprocess.run(
        [script, "start", "--summary-base-dir", str(base), "--workspace", str(workspace), "--port", str(port)],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=120,
    )
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        assert (
            requests.get(f"http://127.0.0.1:{port}/v1/mindinsight/datavisual/train-jobs", timeout=30).json()["total"]
            == 1
        )
        assert not announced.exists()
    finally:
        stopped = run_cli("stop", "--port", str(port), "--workspace", str(workspace))
    assert stopped.returncode == 0 and our_processes(port) == []
