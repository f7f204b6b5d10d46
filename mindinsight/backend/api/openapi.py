"""``/openapi.json``: the OpenAPI 3 document of every declared route (``backend/openapi.py``)."""

from functools import cache

from flask import current_app

from mindinsight.backend.api.routing import Topic
from mindinsight.backend.api.shapes import STRING, map_of, obj
from mindinsight.backend.view_marks import REUSABLE

TOPIC = Topic("openapi")


@cache
def _document(url_path_prefix: str) -> dict:
    # Imported here: the document covers every topic, and the topic list imports this module.
    from mindinsight.backend.api import all_routes
    from mindinsight.backend.openapi import build_document

    return build_document(all_routes(), url_path_prefix)


@TOPIC.get(
    "/openapi.json",
    serving=REUSABLE,
    answer=obj({"openapi": STRING, "info": obj(extra=True), "paths": map_of(obj(extra=True))}, extra=True),
)
def openapi_document(provider):
    """The OpenAPI 3 document of this REST API (paths, parameters, bodies, error codes)."""
    return _document(current_app.config["MI_SETTINGS"].url_path_prefix)
