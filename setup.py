"""Build hook: compile the Vue app into ``mindinsight/ui/dist`` before packaging.

Metadata lives in pyproject.toml. ``pip install .`` runs ``npm ci`` and ``npm run build`` in
``ui/`` so the installed package serves the UI without Node. ``python -m build`` does the same
when it makes the sdist, which then carries the built app and not the app's sources, so the
wheel made from it (and any install of either) needs no Node. Set
``MINDINSIGHT_SKIP_UI_BUILD=1`` to package an already built ``mindinsight/ui/dist`` as is.
"""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
UI_DIR = ROOT / "ui"
DIST_INDEX = ROOT / "mindinsight" / "ui" / "dist" / "index.html"


def _terminal():
    """The user's terminal, when the build has one (None in CI, under nohup, ...)."""
    try:
        return open("/dev/tty", "w", encoding="utf-8")
    except OSError:
        return None


def say(message: str) -> None:
    """One progress line, on stderr and on the user's terminal.

    pip captures a build backend's output and shows it only with ``-v`` (or when the build fails),
    so a plain ``pip install .`` would sit silent for the half minute npm takes; the terminal
    itself is not captured. With ``-v`` the line appears twice, once from each.
    """
    line = f"mindinsight: {message}"
    print(line, file=sys.stderr, flush=True)
    terminal = _terminal()
    if terminal is not None:
        with terminal:
            terminal.write(line + "\n")


def run_npm(npm: str, *args: str) -> None:
    say(f"npm {' '.join(args)}")
    # Output is not captured: npm writes straight to this build's stdout/stderr, which pip shows
    # as it comes with `pip install -v .` and replays if the build fails.
    subprocess.run([npm, *args], cwd=UI_DIR, check=True)


def build_ui() -> None:
    """Install the locked npm dependencies and build the app into mindinsight/ui/dist."""
    if os.environ.get("MINDINSIGHT_SKIP_UI_BUILD") == "1":
        if not DIST_INDEX.is_file():
            raise RuntimeError("MINDINSIGHT_SKIP_UI_BUILD=1 but mindinsight/ui/dist is not built")
        return
    if not (UI_DIR / "package.json").is_file():
        if DIST_INDEX.is_file():
            return  # building from an sdist that already carries the built app
        raise RuntimeError("ui/package.json is missing and no built UI is present")
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm (Node.js >= 20) is needed to build the dashboard UI")
    started = time.monotonic()
    say("building the web UI with npm (about half a minute; `pip install -v` shows npm's output)")
    run_npm(npm, "ci", "--no-audit", "--no-fund")
    run_npm(npm, "run", "build")
    say(f"web UI built into mindinsight/ui/dist in {time.monotonic() - started:.0f} s")


class BuildPyWithUI(build_py):
    def run(self):
        build_ui()
        super().run()


class SdistWithUI(sdist):
    """The sdist carries the built app (package data), so building from it needs no npm."""

    def run(self):
        build_ui()
        super().run()


setup(cmdclass={"build_py": BuildPyWithUI, "sdist": SdistWithUI})
