"""App factories: the Flask app and the ASGI front gunicorn serves.

gunicorn is pointed at the factory target ``mindinsight.backend.application:create_server()``
(``scripts/processes.py`` holds that string; ``mindinsight stop`` finds the server by it), so
the app and its data manager are built in the worker process, never at import time.
"""

import os

from flask import Flask

from mindinsight.cache import job_index
from mindinsight.cache.data_manager import DataManager
from mindinsight.cache.edits_database import EditsDatabase
from mindinsight.cache.lineage_store import LineageStore
from mindinsight.conf.settings import Settings


def create_app(settings: Settings | None = None, start_loading: bool = True) -> Flask:
    """Build the app for ``settings`` (default: from MINDINSIGHT_* environment variables).

    The app owns one ``DataManager`` over the summary base dir and one ``LineageStore``, read
    through one ``DataProvider`` (``backend.context``); with ``start_loading`` their threads
    start at once.
    """
    from mindinsight.backend import api, context, errors_json, security_headers, ui

    settings = settings or Settings.from_env()
    app = Flask(__name__, static_folder=None)
    app.config["MI_SETTINGS"] = settings
    app.json.sort_keys = False
    manager = DataManager(
        settings.summary_base_dir,
        reload_interval=settings.reload_interval,
        storage_options=settings.storage_options_dict,
        index_path=job_index.index_path(settings.workspace, settings.summary_base_dir),
    )
    legacy_json = os.path.join(settings.workspace, "lineage", "added_info.json")
    lineage_store = LineageStore(manager, EditsDatabase(settings.edits_database_url, legacy_json))
    context.attach_data(app, manager, lineage_store)

    prefix = settings.url_path_prefix
    app.register_blueprint(ui.create_blueprint(), url_prefix=prefix or None)
    api.register_routes(app, api.all_routes(), prefix)
    errors_json.register(app)
    security_headers.register(app)
    if start_loading:
        manager.start()
        lineage_store.start(settings.reload_interval)
    return app


def create_asgi_app(flask_app: Flask):
    """The ASGI front serving ``flask_app`` (built by ``create_app``)."""
    from mindinsight.backend.context import data_manager
    from mindinsight.backend.serving import ServingFront

    manager = data_manager(flask_app)
    return ServingFront(flask_app, generation=lambda: manager.generation)


def create_server():
    """What gunicorn serves: the ASGI front around an app built from the environment."""
    return create_asgi_app(create_app())
