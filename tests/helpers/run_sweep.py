"""Sweeps of trainings for the comparison of many runs.

* ``write_sweep``: ``configs`` x ``seeds`` jobs written by our SummaryWriter, named
  ``cfg<c>_seed<ss>``, each one scalar tag ``loss/scalar`` (SWEEP_TAG) of ``points`` steps (``sweep_loss``).
* ``write_hparams_sweep``: TensorBoard runs (``tensorboardX``) named ``hp_lr<lr>_seed<s>``, each
  a hparams session (``lr``, ``seed``) holding its own ``loss`` curve (``hparams_loss``), so its
  hyper-parameters are its lineage's ``user_defined``.
"""

import math
import os
from pathlib import Path

from mindinsight.summary.writer import SummaryWriter

FIRST_MTIME = 1_700_000_000
HPARAMS_LRS = (0.1, 0.01)
HPARAMS_SEEDS = (1, 2, 3)
SWEEP_TAG = "loss/scalar"  # the tag ``add_scalar("loss", ...)`` of our writer makes


def sweep_name(config: int, seed: int) -> str:
    return f"cfg{config}_seed{seed:02d}"


def sweep_loss(config: int, seed: int, step: int) -> float:
    return (config + 1) * math.exp(-step / 250) + 0.01 * seed


def write_sweep(base: Path, configs: int = 5, seeds: int = 20, points: int = 1000) -> list[str]:
    """The jobs' train ids, oldest first (job i's files are older than job i+1's)."""
    ids = []
    for config in range(configs):
        for seed in range(seeds):
            number = len(ids)
            job = base / sweep_name(config, seed)
            with SummaryWriter(job, timestamp=FIRST_MTIME + number) as writer:
                for step in range(1, points + 1):
                    writer.add_scalar("loss", sweep_loss(config, seed, step), step)
            os.utime(writer.path, (FIRST_MTIME + number,) * 2)
            os.utime(job, (FIRST_MTIME + number,) * 2)
            ids.append(f"./{job.name}")
    return ids


def hparams_name(lr: float, seed: int) -> str:
    return f"hp_lr{lr}_seed{seed}"


def hparams_loss(lr: float, seed: int, step: int) -> float:
    return 10 * lr + 0.1 * seed + 0.001 * step


def write_hparams_sweep(base: Path, points: int = 50) -> list[str]:
    """One run per (lr, seed) of HPARAMS_LRS x HPARAMS_SEEDS; their train ids."""
    from tensorboardX import SummaryWriter as TensorBoardWriter
    from tensorboardX.summary import hparams

    ids = []
    for lr in HPARAMS_LRS:
        for seed in HPARAMS_SEEDS:
            name = hparams_name(lr, seed)
            writer = TensorBoardWriter(str(base / name))
            for summary in hparams({"lr": lr, "seed": seed}, {"loss": 0.0}):
                writer.file_writer.add_summary(summary)
            for step in range(1, points + 1):
                writer.add_scalar("loss", hparams_loss(lr, seed, step), step)
            writer.close()
            ids.append(f"./{name}")
    return ids
