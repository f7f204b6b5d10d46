"""Serve the built single-page app (``mindinsight/ui/dist``).

The UI build writes each static file beside a gzip (``.gz``) and a brotli (``.br``) copy made
once at build time; a request whose ``Accept-Encoding`` allows one gets those bytes with
``Content-Encoding`` and never pays for compressing on the fly. Files whose names carry the
bundler's content hash (``static/<name>-<hash>.<ext>``) never change under that name, so the
browser may keep them for a year without asking again; ``index.html`` (which names the current
hashes) is always revalidated.
"""

import mimetypes
import re
from pathlib import Path

from flask import Blueprint, redirect, request, send_file
from werkzeug.security import safe_join

from mindinsight.errors import RouteNotFoundError

DIST_DIR = Path(__file__).resolve().parent.parent / "ui" / "dist"
STATIC_DIR = DIST_DIR / "static"

# Preferred first: brotli is about 15% smaller than gzip on the app's JavaScript.
PRECOMPRESSED = (("br", ".br"), ("gzip", ".gz"))
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# Vite's output names: <name>-<8 characters of base64url hash>.<ext> (e.g. index-DBgD25qz.js).
HASHED_NAME = re.compile(r"-[A-Za-z0-9_-]{8}\.[A-Za-z0-9]+$")


def is_hashed(filename: str) -> bool:
    """True for a file name that carries its content hash (safe to cache forever)."""
    return HASHED_NAME.search(filename.rsplit("/", 1)[-1]) is not None


def accepted_encodings(accept_encoding) -> list[tuple[str, str]]:
    """The precompressed variants the client accepts, best first, as (encoding, suffix)."""
    return [(name, suffix) for name, suffix in PRECOMPRESSED if accept_encoding.quality(name) > 0]


def send_static(path: Path, cache_control: str):
    """``path`` (or an accepted precompressed copy of it) with the given Cache-Control."""
    mimetype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    chosen, encoding = path, None
    for name, suffix in accepted_encodings(request.accept_encodings):
        candidate = path.with_name(path.name + suffix)
        if candidate.is_file():
            chosen, encoding = candidate, name
            break
    response = send_file(chosen, mimetype=mimetype, conditional=True, etag=True)
    if encoding:
        response.headers["Content-Encoding"] = encoding
    # Always, also for the identity answer: a shared cache must not hand it to a client that
    # asked for another encoding, nor the reverse.
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = cache_control
    return response


def create_blueprint() -> Blueprint:
    blueprint = Blueprint("ui", __name__)

    @blueprint.route("/")
    def index():
        index_file = DIST_DIR / "index.html"
        if not index_file.is_file():
            raise RouteNotFoundError()
        return send_static(index_file, REVALIDATE)

    @blueprint.route("/static/<path:filename>")
    def static_file(filename):
        # safe_join refuses paths that leave the static folder (.., absolute paths).
        joined = safe_join(str(STATIC_DIR), filename)
        if joined is None or not Path(joined).is_file():
            raise RouteNotFoundError()
        return send_static(Path(joined), IMMUTABLE if is_hashed(filename) else REVALIDATE)

    @blueprint.route("/graphvizlib.wasm")
    def graphviz_wasm():
        return redirect("static/js/graphvizlib.wasm")

    return blueprint
