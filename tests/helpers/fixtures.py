"""Real MindSpore logs bundled in tests/fixtures, and an independent reader of them.

``read_events`` re-implements the record framing in a few lines (no CRC, no resync) and
decodes with the generated protobuf module, so tests can compare what the server answers
with what the file holds without going through the code under test.
"""

import shutil
import stat
import struct
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mindspore-2.10"
MULTI_RUNS = ("run1_momentum_lr0.01_bs32", "run2_momentum_lr0.005_bs16", "run3_adam_lr0.001_bs32")
# The scalar tags of b_summary_ops as the REST API names them, in the UI's (sorted) order.
B_SUMMARY_OPS_SCALAR_TAGS = (
    "accuracy/scalar",
    "custom_loss/scalar",
    "fc3_out_mean/scalar",
    "learning_rate/scalar",
    "loss_op/scalar",
    "nan_inf_scalar/scalar",
)


def copy_job(name: str, dest: Path) -> Path:
    """Copy fixture job ``name`` (e.g. ``b_summary_ops`` or ``c_multi_runs/run1...``) to ``dest``."""
    shutil.copytree(FIXTURES / name, dest)
    for path in dest.rglob("*"):
        path.chmod(path.stat().st_mode | stat.S_IWUSR)  # MindSpore leaves closed files 0400
    return dest


def read_events(path: Path):
    """Every Event of a summary file, in order."""
    from mindinsight.format.proto import mindinsight_summary_pb2

    data = Path(path).read_bytes()
    pos = 0
    while pos + 12 <= len(data):
        (length,) = struct.unpack_from("<Q", data, pos)
        event = mindinsight_summary_pb2.Event()
        event.ParseFromString(data[pos + 12 : pos + 12 + length])
        pos += 12 + length + 4
        yield event


def scalar_series(job_dir: Path) -> dict[str, list[tuple[int, float]]]:
    """``{tag/scalar: [(step, value), ...]}`` over every ``_MS`` file of a job, in file order."""
    series: dict[str, list[tuple[int, float]]] = {}
    for path in sorted(Path(job_dir).glob("*_MS")):
        for event in read_events(path):
            for value in event.summary.value:
                if value.WhichOneof("value") == "scalar_value":
                    series.setdefault(value.tag + "/scalar", []).append((event.step, value.scalar_value))
    return series
