"""The suite splits on the ``browser`` mark as the README says: ``-m browser`` runs the browser
tests (every test of tests/e2e drives chromium), ``-m "not browser"`` everything else."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTHING_COLLECTED = 5  # pytest's exit code when no test is selected


def collect(folder: str, expression: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", folder, "--collect-only", "-q", "-p", "no:cacheprovider", "-m", expression],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_browser_mark_splits_the_suite():
    browser = collect("tests", "browser")
    assert browser.returncode == 0, browser.stdout[-3000:] + browser.stderr[-3000:]
    marked = [line for line in browser.stdout.splitlines() if "::" in line]
    assert marked and all(test.startswith("tests/e2e/") for test in marked)
    unmarked = collect("tests/e2e", "not browser")
    assert unmarked.returncode == NOTHING_COLLECTED, unmarked.stdout[-3000:] + unmarked.stderr[-3000:]
