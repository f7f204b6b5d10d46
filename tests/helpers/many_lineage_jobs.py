"""Many train jobs with lineage: the real lineage files of h_lineage_30_runs, hard-linked (copied
where the file system cannot link) into ``count`` job directories."""

import os
import shutil
from pathlib import Path

from tests.helpers.fixtures import FIXTURES

LINEAGE_RUNS = FIXTURES / "h_lineage_30_runs"


def lineage_job_name(index: int) -> str:
    return f"job_{index:05d}"


def link_lineage_jobs(base: Path, count: int) -> None:
    """Job ``i`` holds the files of the ``i % 30``-th run (by name) of h_lineage_30_runs."""
    runs = sorted(LINEAGE_RUNS.iterdir())
    for index in range(count):
        job = base / lineage_job_name(index)
        job.mkdir(parents=True)
        for source in runs[index % len(runs)].iterdir():
            try:
                os.link(source, job / source.name)
            except OSError:
                shutil.copy2(source, job / source.name)
