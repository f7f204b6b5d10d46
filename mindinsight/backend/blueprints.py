"""Wire every blueprint, the error mapping and the response headers onto an app."""
from flask import Flask

from mindinsight.backend import errors_json, security_headers, ui
from mindinsight.conf.settings import Settings

API_PREFIX = "/v1/mindinsight"


def register(app: Flask, settings: Settings, start_loading: bool = True) -> None:
    """Attach the API and UI under ``settings.url_path_prefix``."""
    from mindinsight.backend import datavisual
    from mindinsight.cache.data_manager import DataManager

    prefix = settings.url_path_prefix
    manager = DataManager(settings.summary_base_dir, reload_interval=settings.reload_interval)
    app.extensions["mindinsight.data_manager"] = manager

    app.register_blueprint(ui.create_blueprint(), url_prefix=prefix or None)
    app.register_blueprint(datavisual.create_blueprint(manager), url_prefix=prefix + API_PREFIX + "/datavisual")
    errors_json.register(app)
    security_headers.register(app)
    if start_loading:
        manager.start()
