"""Shared fixtures of the unit tests: real MindSpore logs copied into a temp dir."""
import shutil
import stat
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "mindspore-2.10"


def copy_job(name: str, dest: Path) -> Path:
    """Copy fixture job ``name`` (e.g. ``b_summary_ops`` or ``c_multi_runs/run1...``) to ``dest``."""
    shutil.copytree(FIXTURES / name, dest)
    for path in dest.rglob("*"):
        path.chmod(path.stat().st_mode | stat.S_IWUSR)
    return dest


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
