"""Generate the benchmark logs with our own SummaryWriter (same record shapes as MindSpore's).

* scalar log: ``steps`` events, one per step, each holding ``tags`` scalar values
  (MindSpore's SummaryRecord writes one Event per step with every collected value);
  the full size is 50 tags x 200,000 steps = 206 MiB.
* image + histogram log: ``steps`` events, each holding 8 PNG images 32x32 RGB and 16
  histograms of 30 buckets; the full size is 4,000 steps = about 147 MiB.

Files are cached under the data dir in a folder named after the parameters, so a rerun
skips generation; a ``.complete`` marker guards against a half-written cache.
"""

import os
import shutil

import numpy as np

from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.summary import SummaryWriter
from mindinsight.summary.writer import histogram_proto, image_proto

FILE_TS = 1_700_000_000  # fixed file timestamp: reproducible names
WALL_TIME0 = 1_700_000_000.0


def _cached(path: str, build) -> str:
    marker = os.path.join(path, ".complete")
    if os.path.exists(marker):
        return path
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    build(path)
    with open(marker, "w") as stream:
        stream.write("ok\n")
    return path


def scalar_log(data_dir: str, steps: int = 200_000, tags: int = 50) -> str:
    """A job dir holding one scalar summary file; returns the job dir."""

    def build(job_dir):
        rng = np.random.default_rng(1)
        names = [f"train/tag_{index:02d}" for index in range(tags)]
        event = summary_pb.Event(wall_time=WALL_TIME0, step=0)
        items = [event.summary.value.add(tag=name, scalar_value=0.0) for name in names]
        with SummaryWriter(job_dir, timestamp=FILE_TS) as writer:
            block = 10_000
            for start in range(1, steps + 1, block):
                stop = min(start + block, steps + 1)
                values = rng.standard_normal((stop - start, tags), dtype=np.float32).tolist()
                for step, row in zip(range(start, stop), values):
                    event.step = step
                    event.wall_time = WALL_TIME0 + step * 0.05
                    for item, value in zip(items, row):
                        item.scalar_value = value
                    writer.write_event(event)

    return _cached(os.path.join(data_dir, f"scalars_{tags}x{steps}"), build)


def image_histogram_log(
    data_dir: str, steps: int = 4_000, images: int = 8, histograms: int = 16, buckets: int = 30, side: int = 32
) -> str:
    """A job dir holding one summary file of images and histograms; returns the job dir."""

    def build(job_dir):
        rng = np.random.default_rng(2)
        with SummaryWriter(job_dir, timestamp=FILE_TS) as writer:
            for step in range(1, steps + 1):
                values = {}
                for index in range(images):
                    pixels = rng.integers(0, 256, (side, side, 3), dtype=np.uint8)
                    values[f"input/image_{index}"] = image_proto(pixels)
                for index in range(histograms):
                    sample = rng.normal(index * 0.1, 1.0 + step / steps, 256)
                    values[f"weights/layer_{index:02d}"] = histogram_proto(sample, bins=buckets)
                writer.add_values(step, values, wall_time=WALL_TIME0 + step * 0.5)

    return _cached(os.path.join(data_dir, f"imghist_{images}i{histograms}h{buckets}b_{steps}"), build)


def summary_path(job_dir: str) -> str:
    names = [n for n in os.listdir(job_dir) if ".summary." in n]
    return os.path.join(job_dir, names[0])


def linked_copy(src_job: str, dest_job: str) -> str:
    """A job dir whose summary file is a hard link to ``src_job``'s (no extra disk)."""
    if not os.path.isdir(dest_job):
        os.makedirs(dest_job)
        source = summary_path(src_job)
        os.link(source, os.path.join(dest_job, os.path.basename(source)))
    return dest_job
