"""A TensorBoard run, written by tensorboardX, holding values the product reads and does not keep:
kinds it does not show (PR curves, a mesh, a custom-scalars layout) and a histogram over the
bytes one sample may take. ``UNSHOWN`` and ``DROPPED`` are what train-jobs then reports."""

import numpy as np
from tensorboardX import SummaryWriter

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName

_HISTOGRAM_BOUND = limits.MAX_SAMPLE_BYTES[PluginName.HISTOGRAM]

UNSHOWN = [
    {"plugin": "custom_scalars", "tag": "custom_scalars__config__", "count": 1},
    {"plugin": "mesh", "tag": "shape_1", "count": 2},  # vertices
    {"plugin": "mesh", "tag": "shape_2", "count": 2},  # faces
    {"plugin": "mesh", "tag": "shape_3", "count": 2},  # colours
    {"plugin": "pr_curves", "tag": "pr", "count": 3},
]
DROPPED = [
    {
        "plugin": "histogram",
        "tag": "wide",
        "reason": f"histogram over {_HISTOGRAM_BOUND} bytes",
        "reason_code": "histogram_too_large",
        "reason_args": {"bytes": _HISTOGRAM_BOUND},
        "count": 2,
    },
]


def write_run(run_dir: str) -> None:
    """Write the run into ``run_dir``: a loss at steps 0..2 besides the values not kept."""
    rng = np.random.default_rng(7)
    vertices = rng.random((1, 10, 3))
    faces = rng.integers(0, 10, (1, 5, 3))
    colors = rng.integers(0, 255, (1, 10, 3))
    with SummaryWriter(run_dir) as writer:
        for step in range(3):
            writer.add_scalar("loss", 1.0 / (step + 1), step)
            writer.add_pr_curve("pr", rng.integers(0, 2, 50), rng.random(50), step)
        for step in range(2):
            writer.add_mesh("shape", vertices, colors=colors, faces=faces, global_step=step)
            # 5,000 buckets: over the bound as written (merged to fewer only once kept)
            writer.add_histogram("wide", rng.random(10_000), step, bins=np.linspace(0, 1, 5_001))
        writer.add_custom_scalars_multilinechart(["loss"])
