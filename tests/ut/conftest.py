"""Shared fixtures of the unit tests: real MindSpore logs copied into a temp dir."""

from pathlib import Path

import pytest

from tests.helpers.fixtures import FIXTURES, copy_job  # noqa: F401  (re-exported for the unit tests)


@pytest.fixture
def fixture_job(tmp_path):
    """Factory: a writable copy of a fixture job as a direct child of a fresh base dir."""

    def make(name: str, as_name: str | None = None) -> Path:
        return copy_job(name, tmp_path / "base" / (as_name or Path(name).name))

    return make


def summary_file(job_dir: Path) -> Path:
    """The (single) ``_MS`` file of a job dir."""
    files = sorted(job_dir.glob("*_MS"))
    assert files, f"no summary file in {job_dir}"
    return files[0]
