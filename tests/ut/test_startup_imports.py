"""What the server imports before it answers (issue #23: a restart answers its first chart at once).

SQLAlchemy, Alembic and the query parser (lark, its parse table) are imported when first used,
in the lineage thread or at the first query, not while the worker builds the app; ``mindinsight
start`` spawns the server before importing what only its wait needs. These tests keep a new
top-level import from silently bringing them back to start-up.
"""

import json
import subprocess
import sys
import textwrap

from alembic.config import Config
from alembic.script import ScriptDirectory

from mindinsight.cache import edits_tables
from mindinsight.cache.edits_database import MIGRATIONS

LAZY = ("sqlalchemy", "alembic", "mako", "lark")


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
    code = "import mindinsight.cli, mindinsight.scripts.start"
    assert _imported_by(code, names=("psutil", "http.client"), top_level=False) == []


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
