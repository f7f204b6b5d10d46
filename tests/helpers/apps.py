"""In-process apps over a summary base dir, loaded synchronously (no reload thread)."""

import atexit
import shutil
import tempfile
from pathlib import Path

from flask import Flask

from mindinsight.backend.application import create_app
from mindinsight.backend.context import data_manager
from mindinsight.conf.settings import Settings
from tests.helpers.fixtures import MULTI_RUNS, copy_job

# Jobs of the shared loaded app: train_id "./<name>" -> fixture job copied there.
LOADED_JOBS = {
    "b_summary_ops": "b_summary_ops",
    "a_lenet_collector": "a_lenet_collector",
    MULTI_RUNS[0]: f"c_multi_runs/{MULTI_RUNS[0]}",
    MULTI_RUNS[1]: f"c_multi_runs/{MULTI_RUNS[1]}",
    "g_two_sessions": "g_two_sessions",
    "g_max_file_size": "g_max_file_size",
    "d_landscape_epoch": "d_landscape_epoch",
    "h_profiler_resnet": "h_profiler_resnet",
    "f_save_graphs": "f_save_graphs",
    "tb_model": "../tensorboard/torch/model",  # TensorBoard text and graph (torch.utils.tensorboard)
}


def make_app(base: Path, **settings) -> Flask:
    """An app over ``base``, every job listed and fully loaded before it returns."""
    # Tags and remarks are written to the workspace: never the user's ~/mindinsight in tests.
    if "workspace" not in settings:
        settings["workspace"] = tempfile.mkdtemp(prefix="mi-test-ws-")
        atexit.register(shutil.rmtree, settings["workspace"], ignore_errors=True)
    app = create_app(
        Settings(summary_base_dir=str(base), reload_interval=0, **settings).resolved(), start_loading=False
    )
    data_manager(app).load_all_now()
    return app


def make_loaded_base(base: Path) -> Path:
    """The shared fixture base dir: ``LOADED_JOBS`` plus a job holding only a lineage file."""
    for name, fixture in LOADED_JOBS.items():
        copy_job(fixture, base / name)
    lineage = sorted((base / "a_lenet_collector").glob("*_lineage"))[0]
    (base / "lineage_only").mkdir()
    (base / "lineage_only" / lineage.name).write_bytes(lineage.read_bytes())
    return base
