"""Serve the built single-page app (``mindinsight/ui/dist``)."""
from pathlib import Path

from flask import Blueprint, redirect, send_from_directory

from mindinsight.errors import RouteNotFoundError

DIST_DIR = Path(__file__).resolve().parent.parent / "ui" / "dist"


def create_blueprint() -> Blueprint:
    blueprint = Blueprint("ui", __name__)

    @blueprint.route("/")
    def index():
        if not (DIST_DIR / "index.html").is_file():
            raise RouteNotFoundError()
        return send_from_directory(DIST_DIR, "index.html")

    @blueprint.route("/static/<path:filename>")
    def static_file(filename):
        # send_from_directory refuses paths that leave DIST_DIR/static.
        return send_from_directory(DIST_DIR / "static", filename)

    @blueprint.route("/graphvizlib.wasm")
    def graphviz_wasm():
        return redirect("static/js/graphvizlib.wasm")

    return blueprint
