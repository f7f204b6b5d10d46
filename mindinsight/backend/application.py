"""Flask app factory. ``APP`` is the module-level instance gunicorn serves.

gunicorn is pointed at ``mindinsight.backend.application:APP``; ``mindinsight stop`` finds the
server by that string in its command line.
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


def __getattr__(name):
    # Built lazily so importing this module (tests, tools) does not start a server's loaders.
    if name == "APP":
        global APP
        APP = create_app()
        return APP
    raise AttributeError(name)
