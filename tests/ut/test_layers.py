"""The layers, checked on the source: format -> ingest -> cache -> services -> backend.

Services reach data only through the data provider (``mindinsight/cache/provider.py``): they
never open a file, build a path or import a reader, so a new storage (an object store) plugs in
below the provider without touching them.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "mindinsight"
LAYERS = ("format", "ingest", "cache", "services", "backend")
# What a service may not import: file and path access, and every reader or holder of data
# except the provider (and the memo's answer type). ``ingest.kinds`` defines the sample types
# the provider hands out; decoding them is the loader's job.
FORBIDDEN_FOR_SERVICES = ("os", "pathlib", "io", "shutil", "glob", "tempfile", "builtins", "mindinsight.format.files")
ALLOWED_BELOW_SERVICES = ("mindinsight.cache.provider", "mindinsight.cache.memo", "mindinsight.ingest.kinds")


def _modules(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


def _imports(path: Path) -> list[tuple[int, str]]:
    """``(line, dotted name)`` of every import of ``path`` (``from a import b`` gives ``a.b``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def _within(name: str, module: str) -> bool:
    return name == module or name.startswith(module + ".")


def _service_offences(path: Path) -> list[str]:
    offences = []
    for line, name in _imports(path):
        if any(_within(name, module) for module in FORBIDDEN_FOR_SERVICES):
            offences.append(f"{line}: imports {name}")
        elif _within(name, "mindinsight.ingest") or _within(name, "mindinsight.cache"):
            if not any(_within(name, module) for module in ALLOWED_BELOW_SERVICES):
                offences.append(f"{line}: imports {name} (services reach data through mindinsight.cache.provider)")
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
            offences.append(f"{node.lineno}: calls open()")
    return offences


@pytest.mark.parametrize("path", _modules("services"), ids=lambda path: str(path.relative_to(PACKAGE)))
def test_service_reaches_data_only_through_the_provider(path):
    assert _service_offences(path) == []


def test_the_check_sees_what_it_forbids(tmp_path):
    offender = tmp_path / "offender.py"
    offender.write_text(
        "import os\nfrom pathlib import Path\nfrom mindinsight.cache.data_manager import DataManager\n"
        "from mindinsight.ingest.profiler_dirs import locate\nfrom mindinsight.format import files\n"
        "from mindinsight.cache.provider import DataProvider\nfrom mindinsight.ingest.kinds import KINDS\n"
        "open('x')\n"
    )
    assert [offence.split(":")[0] for offence in _service_offences(offender)] == ["1", "2", "3", "4", "5", "8"]


@pytest.mark.parametrize("layer", LAYERS[:-1])
def test_layer_imports_only_downward(layer):
    above = LAYERS[LAYERS.index(layer) + 1 :]
    offences = [
        f"{path.relative_to(PACKAGE)}:{line}: imports {name}"
        for path in _modules(layer)
        for line, name in _imports(path)
        if any(_within(name, f"mindinsight.{higher}") for higher in above)
    ]
    assert offences == []
