"""App factories. ``ASGI_APP`` is the module-level instance gunicorn serves.

gunicorn is pointed at ``mindinsight.backend.application:ASGI_APP`` (the ASGI front of
``serving.py`` around the Flask app ``APP``); ``mindinsight stop`` finds the server by that
string in its command line.
"""
from flask import Flask

from mindinsight.conf.settings import Settings


def create_app(settings: Settings | None = None, start_loading: bool = True) -> Flask:
    """Build the app for ``settings`` (default: from MINDINSIGHT_* environment variables)."""
    settings = settings or Settings.from_env()
    app = Flask(__name__, static_folder=None)
    app.config["MI_SETTINGS"] = settings
    app.json.sort_keys = False

    from mindinsight.backend import blueprints
    blueprints.register(app, settings, start_loading=start_loading)
    return app


def create_asgi_app(flask_app: Flask):
    """The ASGI front serving ``flask_app`` (built by ``create_app``)."""
    from mindinsight.backend.serving import ServingFront
    manager = flask_app.extensions["mindinsight.data_manager"]
    return ServingFront(flask_app, generation=lambda: manager.generation)


def __getattr__(name):
    # Built lazily so importing this module (tests, tools) does not start a server's loaders.
    global APP, ASGI_APP
    if name == "APP":
        APP = create_app()
        return APP
    if name == "ASGI_APP":
        ASGI_APP = create_asgi_app(__getattr__("APP") if "APP" not in globals() else APP)
        return ASGI_APP
    raise AttributeError(name)
