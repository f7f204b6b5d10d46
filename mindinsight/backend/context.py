"""The one way backend code reaches the data manager of the app serving the request."""

from flask import Flask, current_app

from mindinsight.cache.data_manager import DataManager
from mindinsight.cache.lineage_store import LineageStore

_EXTENSION = "mindinsight.data_manager"
_LINEAGE_EXTENSION = "mindinsight.lineage_store"


def attach_data_manager(app: Flask, manager: DataManager) -> None:
    """Make ``manager`` the data manager of ``app`` (done once by the app factory)."""
    app.extensions[_EXTENSION] = manager


def data_manager(app: Flask | None = None) -> DataManager:
    """The data manager of ``app`` (default: the app of the current request)."""
    return (app or current_app).extensions[_EXTENSION]


def attach_lineage_store(app: Flask, store: LineageStore) -> None:
    """Make ``store`` the lineage store of ``app`` (done once by the app factory)."""
    app.extensions[_LINEAGE_EXTENSION] = store


def lineage_store(app: Flask | None = None) -> LineageStore:
    """The lineage store of ``app`` (default: the app of the current request)."""
    return (app or current_app).extensions[_LINEAGE_EXTENSION]
