"""What the server imports before it answers (issue #23: a restart answers its first chart at once).

SQLAlchemy, Alembic and the query parser (lark, its parse table) are imported when first used,
in the lineage thread or at the first query, not while the worker builds the app; ``mindinsight
start`` spawns the server before importing what only its wait needs; the worker starts its data
manager (listing, index restore) before it imports Flask, and numpy starts no BLAS threads in
it. These tests keep a new top-level import or a reordering from silently bringing the cost
back to start-up.
"""

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory

from mindinsight.cache import edits_tables, job_index
from mindinsight.cache.data_manager import DataManager
from mindinsight.cache.edits_database import MIGRATIONS
from mindinsight.conf import limits
from mindinsight.scripts.start import GUNICORN_CONF

FIXTURE_RUN = Path(__file__).resolve().parents[1] / "fixtures" / "mindspore-2.10" / "b_summary_ops"

LAZY = ("sqlalchemy", "alembic", "mako", "lark")


def _run_fresh(code: str, env: dict | None = None) -> str:
    """The last line ``code`` prints in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def _imported_by(code: str, names: tuple = LAZY, top_level: bool = True) -> list[str]:
    """The modules of ``names`` (top-level packages unless ``top_level`` is false) a fresh
    interpreter holds after running ``code``."""
    held = '{name.split(".")[0] for name in sys.modules}' if top_level else "set(sys.modules)"
    script = textwrap.dedent(code) + textwrap.dedent(
        f"""
        import json, sys
        print(json.dumps(sorted({held} & set({names!r}))))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_building_the_server_imports_no_database_or_query_parser(tmp_path):
    imported = _imported_by(
        f"""
        from mindinsight.backend import api, serving
        from mindinsight.backend.application import create_app, create_asgi_app
        from mindinsight.conf.settings import Settings

        settings = Settings.from_env(summary_base_dir={str(tmp_path)!r}, workspace={str(tmp_path / "ws")!r})
        create_asgi_app(create_app(settings, start_loading=False))
        """
    )
    assert imported == []


def test_the_start_command_imports_psutil_and_http_client_only_once_the_server_is_spawned():
    # Its imports before spawning gunicorn delay the server; while waiting for it they do not.
    # secrets: only to make up a token for a server bound beyond loopback.
    code = "import mindinsight.cli, mindinsight.scripts.start"
    assert _imported_by(code, names=("psutil", "http.client", "secrets"), top_level=False) == []


def test_a_query_still_parses_once_the_parser_is_imported():
    assert _imported_by("from mindinsight.services.run_query import parse_query; parse_query('a < 1')") == ["lark"]


def test_the_head_revision_is_the_newest_migration():
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(config).get_current_head() == edits_tables.HEAD_REVISION


def test_a_database_already_migrated_is_used_without_alembic(tmp_path):
    workspace = tmp_path / "ws"
    code = f"""
        from mindinsight.cache.edits_database import EditsDatabase
        from mindinsight.conf.settings import Settings

        settings = Settings.from_env(workspace={str(workspace)!r})
        edits = EditsDatabase(settings.edits_database_url, {str(workspace / "lineage" / "added_info.json")!r})
        edits.poll()
        assert edits.notice is None, edits.notice
        if not edits.all():
            edits.update("./run", {{"remark": "kept"}})
        assert edits.all() == {{"./run": {{"remark": "kept"}}}}, edits.all()
        """
    assert "alembic" in _imported_by(code)  # the first start makes the schema
    assert _imported_by(code) == ["sqlalchemy"]  # a restart reads it as it is


@pytest.mark.parametrize("restart", [True, False])
def test_the_worker_starts_its_data_manager_before_it_imports_flask(tmp_path, restart):
    # The loader thread lists the jobs and restores them from the index while the web layer is
    # imported; the server is handed to gunicorn only once the jobs are listed. The GIL is
    # switched sooner meanwhile on a restart only (an index to restore beside the imports).
    shutil.copytree(FIXTURE_RUN, tmp_path / "logs" / "run")
    if restart:
        path = job_index.index_path(str(tmp_path / "ws"), str(tmp_path / "logs"))
        assert job_index.JobIndex(path).open()
    env = {
        **os.environ,
        "MINDINSIGHT_SUMMARY_BASE_DIR": str(tmp_path / "logs"),
        "MINDINSIGHT_WORKSPACE": str(tmp_path / "ws"),
        "MINDINSIGHT_RELOAD_INTERVAL": "0",
    }
    code = """
        import gc, json, sys, threading

        class FirstFlaskImport:
            threads = None

            def find_spec(self, name, path=None, target=None):
                if name == "flask" and self.threads is None:
                    self.threads = sorted(thread.name for thread in threading.enumerate())
                    self.switch_interval = sys.getswitchinterval()
                return None

        watch = FirstFlaskImport()
        sys.meta_path.insert(0, watch)
        from mindinsight.backend.application import create_server

        server = create_server()
        from mindinsight.backend.context import data_manager  # imports Flask

        young = len(gc.get_objects(0)) + len(gc.get_objects(1))
        listed = [brief.train_id for brief in data_manager(server.flask_app).briefs()]
        collector = [gc.isenabled(), gc.get_freeze_count(), young]
        print(json.dumps([watch.threads, watch.switch_interval, listed, sys.getswitchinterval(), collector]))
        """
    threads, building_interval, listed, switch_interval, (gc_enabled, frozen, young) = json.loads(_run_fresh(code, env))
    assert "mindinsight-loader" in threads
    assert building_interval == (limits.START_SWITCH_INTERVAL_SECONDS if restart else 0.005)
    assert listed == ["./run"]
    assert (switch_interval, gc_enabled, frozen) == (0.005, True, 0)  # as they were before the build
    # What start-up made is in the oldest generation: the next young collection does not walk it.
    assert young < 10_000


def test_a_failed_first_listing_stops_the_start():
    class Failing(DataManager):
        def refresh_briefs(self):
            raise OSError("cannot list")

    manager = Failing("/nonexistent", reload_interval=0)
    with pytest.raises(OSError, match="cannot list"):
        manager.start()
    manager.stop()


def test_numpy_starts_no_blas_threads_in_the_server():
    # Without OPENBLAS_NUM_THREADS=1 OpenBLAS starts a thread per further core at import.
    code = f"""
        import os, runpy

        runpy.run_path({str(GUNICORN_CONF)!r})  # what the gunicorn master runs before forking the worker
        import numpy

        print(len(os.listdir("/proc/self/task")))
        """
    env = {name: value for name, value in os.environ.items() if not name.endswith("_NUM_THREADS")}
    assert _run_fresh(code, env) == "1"
