"""The versions a test report names first: the interpreter, the libraries whose behaviour the
tests depend on most, and the browser and Node.js the UI tests run with."""

import platform
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
PACKAGES = ("protobuf", "numpy", "flask", "gunicorn", "playwright")
CACHE_KEY = "mindinsight/chromium-version"


def _package(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"


def _protobuf_backend() -> str:
    try:
        from google.protobuf.internal import api_implementation
    except ImportError:
        return "absent"
    return api_implementation.Type()


def _command_version(*command: str) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as error:
        return f"unknown ({error.__class__.__name__})"
    return done.stdout.strip() or f"unknown (exit {done.returncode})"


def chromium_version(cache=None) -> str:
    """``chromium --version``, remembered in pytest's cache while the binary stays the same file
    (it starts the whole browser shell, a noticeable pause on every run otherwise)."""
    if not CHROMIUM.is_file():
        return "absent"
    stat = CHROMIUM.stat()
    identity = f"{stat.st_size}:{stat.st_mtime_ns}"
    remembered = cache.get(CACHE_KEY, None) if cache is not None else None
    if remembered and remembered.get("identity") == identity:
        return remembered["version"]
    version = _command_version(str(CHROMIUM), "--version")
    if cache is not None and not version.startswith("unknown"):
        cache.set(CACHE_KEY, {"identity": identity, "version": version})
    return version


def version_lines(cache=None) -> list[str]:
    """Lines for ``pytest_report_header``."""
    node = shutil.which("node")
    packages = ", ".join(
        f"{name} {_package(name)}" + (f" ({_protobuf_backend()})" if name == "protobuf" else "") for name in PACKAGES
    )
    return [
        f"python {platform.python_version()} ({platform.python_implementation()}), {packages}",
        f"chromium: {chromium_version(cache)}; node: {_command_version(node, '--version') if node else 'absent'}",
    ]
