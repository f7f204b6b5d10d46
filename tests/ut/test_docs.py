"""The docs kept honest: what docs/ and the README name exists, what code cites is there.

Docstrings cite sections of docs/ as ``docs/FORMATS.md §5``; the docs name files of the tree in
backticks. Both go stale silently when code moves, so these tests read them as data.
"""

import re
import subprocess
from pathlib import Path

import pytest

from mindinsight.conf.plugins import PluginName

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").glob("*.md"))
# Where a path named in the docs may be rooted: the repo, the package, the web app's sources.
PATH_ROOTS = (ROOT, ROOT / "mindinsight", ROOT / "ui", ROOT / "ui" / "src", ROOT / "tests")
# A file with one of our suffixes, or a folder (a trailing slash): REST paths and tags are neither.
NAMED_PATH = re.compile(r"`([\w.-]+(?:/[\w.-]+)*(?:\.(?:py|js|vue|ts|md|sh|proto|json|lock|in|toml)|/))`")
CITATION = re.compile(r"docs/([A-Z_]+\.md) §(\d+(?:\.\d+)?)")
# Reference material lives outside the repository; nothing inside may lean on it.
OUTSIDE = re.compile(r"\.\./shared|\bbehaviour\.md|\brest-api\.md|\bfile-formats\.md|\bapi-samples\.md|ui-reference")
SOURCE_SUFFIXES = {".py", ".js", ".vue", ".ts", ".sh", ".md", ".toml", ".cfg", ".txt", ".in", ".css", ".html"}


def _tracked_sources() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [ROOT / name for name in listed if Path(name).suffix in SOURCE_SUFFIXES and (ROOT / name).is_file()]


def _sections(doc: Path) -> set[str]:
    return set(re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", doc.read_text(), flags=re.MULTILINE))


def test_docs_exist_and_the_readme_links_each():
    names = {doc.name for doc in DOCS}
    assert {"ARCHITECTURE.md", "ADDING_A_KIND.md", "FORMATS.md", "BEHAVIOUR.md"} <= names
    readme = (ROOT / "README.md").read_text()
    unlinked = [name for name in names if f"](docs/{name})" not in readme]
    assert not unlinked, f"README links no docs/{unlinked}"


@pytest.mark.parametrize("doc", DOCS + [ROOT / "README.md"], ids=lambda path: path.name)
def test_every_path_a_doc_names_exists(doc):
    missing = [
        name
        for name in NAMED_PATH.findall(doc.read_text())
        if "/" in name.rstrip("/")
        and not name.startswith(("http", ".", "v1/", "/"))
        and "*" not in name
        and "<" not in name
        and not any((root / name).exists() for root in PATH_ROOTS)
    ]
    assert not missing, f"{doc.name} names paths that do not exist: {missing}"


def test_every_cited_section_exists():
    sections = {doc.name: _sections(doc) for doc in DOCS}
    broken = []
    for path in _tracked_sources():
        for name, section in CITATION.findall(path.read_text(errors="replace")):
            if section not in sections.get(name, set()):
                broken.append(f"{path.relative_to(ROOT)}: docs/{name} §{section}")
    assert not broken, "citations of missing doc sections:\n" + "\n".join(broken)


def test_nothing_points_outside_the_repository():
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _tracked_sources()
        if path != Path(__file__).resolve()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not offenders, "references to files outside the repository: " + ", ".join(offenders)


def test_the_architecture_places_every_plugin():
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    table = text[text.index("## Data kinds") :]
    missing = [name for name in PluginName.names() if f"| {name}" not in table and f", {name} |" not in table]
    assert not missing, f"docs/ARCHITECTURE.md does not say where these kinds live: {missing}"
