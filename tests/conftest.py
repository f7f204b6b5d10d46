"""Fixtures shared by every test package: one loaded app over real MindSpore logs, an empty one;
the ``browser`` mark of every test that drives chromium; the versions in the report header."""

import pytest

from tests.helpers.apps import make_app, make_loaded_base
from tests.helpers.versions import version_lines


def pytest_report_header(config):
    return version_lines(getattr(config, "cache", None))


def pytest_collection_modifyitems(items):
    """Mark ``browser`` every test that uses the ``browser`` fixture (Playwright's chromium), so
    ``-m browser`` and ``-m "not browser"`` split the suite."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def loaded_app(tmp_path_factory):
    """The app over ``tests.helpers.apps.LOADED_JOBS`` (real MindSpore 2.10 logs), fully loaded.

    Shared by the whole session: tests must only read through it.
    """
    return make_app(make_loaded_base(tmp_path_factory.mktemp("loaded_base")))


@pytest.fixture
def client(loaded_app):
    """A Flask test client of ``loaded_app``."""
    return loaded_app.test_client()


@pytest.fixture
def empty_app(tmp_path):
    """An app over an empty summary base dir."""
    base = tmp_path / "empty_base"
    base.mkdir()
    return make_app(base)
