"""Adding a per-tag kind on the server is two new modules and one plugin name (docs/ADDING_A_KIND.md).

The registries find what is present: every ``ingest/kinds`` module's ``KINDS`` and every
``backend/api`` module's ``TOPIC``. The proof adds a throwaway kind to a copy of the package
in a temporary directory (the product ships no such kind) and asks the copy's server about it;
the generic "steps of a tag" answer is checked on a real log through a route declared here.
"""

import ast
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from mindinsight.backend import api
from mindinsight.backend.api.per_tag import PerTagTopic
from mindinsight.backend.api.routing import API_PREFIX, register_routes
from mindinsight.backend.api.shapes import NUMBER
from mindinsight.backend.openapi import build_document
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import TagDataNotExistError, TrainJobNotExistError, error_code
from tests.helpers.apps import make_app
from tests.helpers.fixtures import copy_job

PACKAGE = Path(api.__file__).resolve().parents[2]
API_DIR = PACKAGE / "backend" / "api"


def _declares_topic(path: Path) -> bool:
    """Whether the module's source assigns ``TOPIC`` at its top level."""
    tree = ast.parse(path.read_text(), str(path))
    return any(
        isinstance(node, ast.Assign) and any(getattr(target, "id", None) == "TOPIC" for target in node.targets)
        for node in tree.body
    )


def test_every_module_declaring_a_topic_is_registered():
    declaring = sorted(path.stem for path in API_DIR.glob("*.py") if _declares_topic(path))
    assert "histograms" in declaring and "openapi" in declaring
    registered = {sys.modules[f"{api.__name__}.{name}"].TOPIC for name in declaring}
    assert set(api.TOPICS) == registered
    assert len(api.TOPICS) == len(declaring)


def test_the_original_topics_come_first_in_their_order():
    names = [f"{api.__name__}.{name}" for name in api.ORIGINAL_ORDER]
    assert api.TOPICS[: len(names)] == [sys.modules[name].TOPIC for name in names]


KIND_MODULE = """
    \"\"\"A kind only this test declares (no source of samples: it proves the registration).\"\"\"

    from mindinsight.conf import limits
    from mindinsight.conf.plugins import PluginName
    from mindinsight.ingest.kinds.base import Kind

    KINDS = (Kind(PluginName.THROWAWAY, {"value": object}, limits.steps_per_tag(PluginName.THROWAWAY)),)
"""
TOPIC_MODULE = """
    \"\"\"The routes of the throwaway kind.\"\"\"

    from mindinsight.backend.api.per_tag import PerTagTopic
    from mindinsight.backend.api.shapes import STRING
    from mindinsight.conf.plugins import PluginName

    TOPIC = PerTagTopic("throwaways", PluginName.THROWAWAY, example_tag="notes/throwaway")
    TOPIC.tag_steps("/datavisual/throwaways", name="throwaways", columns={"value": STRING})
"""
ASK_THE_COPY = """
    import json, sys
    from mindinsight.backend import api
    from mindinsight.backend.application import create_app
    from mindinsight.backend.context import data_manager
    from mindinsight.backend.openapi import build_document
    from mindinsight.conf.settings import Settings

    app = create_app(Settings(summary_base_dir=sys.argv[1], workspace=sys.argv[2], reload_interval=0).resolved(),
                     start_loading=False)
    data_manager(app).load_all_now()
    client = app.test_client()
    answers = [
        client.get("/v1/mindinsight" + path, query_string=query).get_json()
        for path, query in (
            ("/datavisual/plugins", {"train_id": "./job"}),
            ("/datavisual/throwaways", {"train_id": "./no_such_job", "tag": "a/throwaway"}),
            ("/datavisual/throwaways", {"train_id": "./job", "tag": "a/throwaway"}),
        )
    ]
    print(json.dumps({
        "topics": [topic.name for topic in api.TOPICS],
        "paths": list(build_document(api.all_routes())["paths"]),
        "answers": answers,
    }))
"""


def test_a_new_kind_is_two_new_modules_and_a_plugin_name(tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(PACKAGE, copy / "mindinsight", ignore=shutil.ignore_patterns("__pycache__", "dist"))
    plugins = copy / "mindinsight" / "conf" / "plugins.py"
    declaration = '    LOSS_LANDSCAPE = "loss_landscape"\n'
    assert declaration in plugins.read_text()
    plugins.write_text(plugins.read_text().replace(declaration, declaration + '    THROWAWAY = "throwaway"\n'))
    (copy / "mindinsight" / "ingest" / "kinds" / "throwaway.py").write_text(textwrap.dedent(KIND_MODULE))
    (copy / "mindinsight" / "backend" / "api" / "throwaways.py").write_text(textwrap.dedent(TOPIC_MODULE))
    copy_job("b_summary_ops", tmp_path / "base" / "job")
    (tmp_path / "workspace").mkdir()

    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(ASK_THE_COPY), str(tmp_path / "base"), str(tmp_path / "workspace")],
        cwd=copy,
        env={"PYTHONPATH": str(copy), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)

    assert seen["topics"] == [topic.name for topic in api.TOPICS] + ["throwaways"]
    original_paths = list(build_document(api.all_routes())["paths"])
    assert seen["paths"] == original_paths + [API_PREFIX + "/datavisual/throwaways"]
    plugins, no_job, no_tag = seen["answers"]
    assert plugins["plugins"]["throwaway"] == [] and plugins["plugins"]["scalar"]
    assert no_job["error_code"] == error_code(TrainJobNotExistError.module, TrainJobNotExistError.value)
    assert no_tag["error_code"] == error_code(TagDataNotExistError.module, TagDataNotExistError.value)


def test_the_generic_steps_answer_lists_the_kept_steps(tmp_path):
    """A kind whose answer is its kept steps declares one route and no view: checked here on the
    scalar samples of a real log, under a path of this test's own app."""
    base = tmp_path / "base"
    copy_job("b_summary_ops", base / "b_summary_ops")
    topic = PerTagTopic("scalar_steps", PluginName.SCALAR, example_tag="accuracy/scalar")
    route = topic.tag_steps("/test/scalar-steps", name="values", columns={"value": NUMBER})
    assert route.__name__ == "scalar_steps_values"
    app = make_app(base)
    register_routes(app, topic.routes)
    client = app.test_client()

    query = {"train_id": "./b_summary_ops", "tag": topic.example_tag}
    answer = client.get(API_PREFIX + "/test/scalar-steps", query_string=query).get_json()
    points = client.get(API_PREFIX + "/datavisual/scalar/metadata", query_string=query).get_json()["metadatas"]
    assert answer == {"train_id": "./b_summary_ops", "tag": "accuracy/scalar", "values": points}
    assert len(points) > 1

    missing = client.get(API_PREFIX + "/test/scalar-steps", query_string={**query, "tag": "no_such/scalar"})
    assert missing.status_code == 400
    assert missing.get_json()["error_code"] == error_code(TagDataNotExistError.module, TagDataNotExistError.value)
    assert missing.get_json()["error_code"] == "50545018"

    document = build_document(topic.routes)
    operation = document["paths"][API_PREFIX + "/test/scalar-steps"]["get"]
    assert operation["operationId"] == "scalar_steps.scalar_steps_values"
    assert "50545018" in json.dumps(operation["responses"])
