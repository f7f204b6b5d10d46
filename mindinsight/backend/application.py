"""App factories: the Flask app and the ASGI front gunicorn serves.

gunicorn is pointed at the factory target ``mindinsight.backend.application:create_server()``
(``scripts/processes.py`` holds that string; ``mindinsight stop`` finds the server by it), so
the app and its data manager are built in the worker process, never at import time.

``create_server`` starts the data manager before it imports the web layer (Flask, the API
modules, marshmallow): its thread lists the jobs and, on a restart, restores them from the
persistent index while the app is imported and built, so the first chart is served sooner.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import TYPE_CHECKING

from mindinsight.conf import limits
from mindinsight.conf.settings import Settings

if TYPE_CHECKING:
    from flask import Flask

    from mindinsight.cache.data_manager import DataManager


def create_data_manager(settings: Settings) -> DataManager:
    """The data manager of ``settings``' summary base dir, its index in the workspace (not started)."""
    from mindinsight.cache import job_index
    from mindinsight.cache.data_manager import DataManager

    return DataManager(
        settings.summary_base_dir,
        reload_interval=settings.reload_interval,
        storage_options=settings.storage_options_dict,
        index_path=job_index.index_path(settings.workspace, settings.summary_base_dir),
    )


def create_app(settings: Settings | None = None, start_loading: bool = True) -> Flask:
    """Build the app for ``settings`` (default: from MINDINSIGHT_* environment variables).

    The app owns one ``DataManager`` over the summary base dir and one ``LineageStore``, read
    through one ``DataProvider`` (``backend.context``); with ``start_loading`` their threads
    start at once.
    """
    settings = settings or Settings.from_env()
    manager = create_data_manager(settings)
    app = _web_app(settings, manager)
    if start_loading:
        manager.start()
        _start_lineage(app, settings)
    return app


def _web_app(settings: Settings, manager: DataManager) -> Flask:
    """The Flask app serving ``manager``'s data, with its lineage store (not started)."""
    from flask import Flask

    from mindinsight.backend import api, context, errors_json, security_headers, ui
    from mindinsight.cache.edits_database import EditsDatabase
    from mindinsight.cache.lineage_store import LineageStore

    app = Flask(__name__, static_folder=None)
    app.config["MI_SETTINGS"] = settings
    app.json.sort_keys = False
    legacy_json = os.path.join(settings.workspace, "lineage", "added_info.json")
    lineage_store = LineageStore(manager, EditsDatabase(settings.edits_database_url, legacy_json))
    context.attach_data(app, manager, lineage_store)

    prefix = settings.url_path_prefix
    app.register_blueprint(ui.create_blueprint(), url_prefix=prefix or None)
    api.register_routes(app, api.all_routes(), prefix)
    errors_json.register(app)
    security_headers.register(app)
    return app


def _start_lineage(app: Flask, settings: Settings) -> None:
    from mindinsight.backend.context import lineage_store

    lineage_store(app).start(settings.reload_interval)


def create_asgi_app(flask_app: Flask):
    """The ASGI front serving ``flask_app`` (built by ``create_app``)."""
    from mindinsight.backend.context import data_manager
    from mindinsight.backend.serving import ServingFront

    manager = data_manager(flask_app)
    return ServingFront(flask_app, generation=lambda: manager.generation)


def create_server():
    """What gunicorn serves: the ASGI front around an app built from the environment.

    The data manager's thread starts first (see the module docstring); nothing is served before
    its first listing has ended, as with ``create_app``.
    """
    # Start-up allocates a few hundred thousand objects that all stay (modules, classes,
    # routes): the cyclic collector would walk them again and again for nothing meanwhile.
    gc.disable()
    switch_interval = sys.getswitchinterval()
    try:
        settings = Settings.from_env()
        manager = create_data_manager(settings)
        from mindinsight.cache import job_index

        if os.path.exists(job_index.index_path(settings.workspace, settings.summary_base_dir)):
            # A restart: the loader thread lets go of the GIL at every file, SQLite and numpy
            # call of its restore, and the imports here would keep it for the whole default 5 ms
            # each time; switched sooner, the restore goes on beside them instead of after them.
            # Not on a first start: there the thread decodes logs, and sharing more with it
            # would only delay the first answer.
            sys.setswitchinterval(limits.START_SWITCH_INTERVAL_SECONDS)
        manager.start(wait_listed=False)
        app = _web_app(settings, manager)
        server = create_asgi_app(app)
        manager.wait_listed()
        _start_lineage(app, settings)
        return server
    finally:
        sys.setswitchinterval(switch_interval)
        # Straight to the oldest generation (what surviving two collections would do), else the
        # first collection after ``enable`` walks them all (15-20 ms) before the first answer.
        gc.freeze()
        gc.unfreeze()
        gc.enable()
