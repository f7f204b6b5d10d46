"""The one way backend code reaches the data of the app serving the request.

Views and services read data through the app's ``DataProvider`` (``cache/provider.py``); the
data manager and the lineage store behind it are reached here only to start and stop them.
"""

from flask import Flask, current_app

from mindinsight.cache.data_manager import DataManager
from mindinsight.cache.lineage_store import LineageStore
from mindinsight.cache.provider import DataProvider

_EXTENSION = "mindinsight.data_manager"
_LINEAGE_EXTENSION = "mindinsight.lineage_store"
_PROVIDER_EXTENSION = "mindinsight.data_provider"


def attach_data(app: Flask, manager: DataManager, store: LineageStore) -> DataProvider:
    """Make ``manager`` and ``store`` the data of ``app``, read through one provider (done once
    by the app factory)."""
    app.extensions[_EXTENSION] = manager
    app.extensions[_LINEAGE_EXTENSION] = store
    provider = app.extensions[_PROVIDER_EXTENSION] = DataProvider(manager, store)
    return provider


def data_provider(app: Flask | None = None) -> DataProvider:
    """The data provider of ``app`` (default: the app of the current request)."""
    return (app or current_app).extensions[_PROVIDER_EXTENSION]


def data_manager(app: Flask | None = None) -> DataManager:
    """The data manager of ``app`` (default: the app of the current request)."""
    return (app or current_app).extensions[_EXTENSION]


def lineage_store(app: Flask | None = None) -> LineageStore:
    """The lineage store of ``app`` (default: the app of the current request)."""
    return (app or current_app).extensions[_LINEAGE_EXTENSION]
