"""Many tiny train jobs, each one small summary file written by our SummaryWriter."""

import os
from pathlib import Path

from mindinsight.summary.writer import SummaryWriter

FIRST_MTIME = 1_700_000_000


def job_name(index: int) -> str:
    return f"job_{index:05d}"


def write_tiny_jobs(base: Path, count: int) -> None:
    """``count`` one-scalar jobs (tag ``loss``); job i is older (directory and file mtime) than
    job i+1, so the listing, newest first, runs from job ``count - 1`` down to job 0."""
    for index in range(count):
        job = base / job_name(index)
        with SummaryWriter(job, timestamp=FIRST_MTIME + index) as writer:
            writer.add_scalar("loss", 1.0 / (index + 1), 1)
        mtime = FIRST_MTIME + index
        os.utime(writer.path, (mtime, mtime))
        os.utime(job, (mtime, mtime))
