"""Serve the built single-page app (``mindinsight/ui/dist``).

The UI build writes each static file beside a gzip (``.gz``) and a brotli (``.br``) copy made
once at build time; a request whose ``Accept-Encoding`` allows one gets those bytes with
``Content-Encoding`` and never pays for compressing on the fly. Files whose names carry the
bundler's content hash (``static/<name>-<hash>.<ext>``) never change under that name, so the
browser may keep them for a year without asking again; ``index.html`` (which names the current
hashes) is always revalidated.

Hashed files are kept in memory once read and served on the event loop: a page loads dozens
of them at once, six at a time per connection limit, so each one's answer time adds up to when
the page can draw. A thread hand-off and a file read per request cost several milliseconds each
on a busy 2-core machine; a dictionary lookup does not. Their answers are also kept whole by the
ASGI front (``immutable_file``), so a cold page's files are sent without running Flask at all.
"""

import hashlib
import mimetypes
import re
from pathlib import Path

from flask import Blueprint, Response, redirect, request, send_file
from werkzeug.security import safe_join

from mindinsight.backend.view_marks import immutable_file
from mindinsight.errors import RouteNotFoundError
from mindinsight.format.files import open_inside, real_root

DIST_DIR = Path(real_root(str(Path(__file__).parent.parent / "ui" / "dist")))
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


# Entries, not bytes: the built UI holds a few hundred files (each in up to three encodings),
# a few MB in all.
HASHED_FILES_KEPT = 2048


_kept: dict[str, tuple[bytes, str]] = {}


def _hashed_file(path: str) -> tuple[bytes, str] | None:
    """The bytes and ETag of a file whose name carries its content hash, or None if absent.
    Such a file never changes under its name, so what is read once stays true (an absent one
    is looked for again: a new build may bring it)."""
    kept = _kept.get(path)
    if kept is None:
        try:
            with open_inside(path, str(DIST_DIR)) as stream:  # the one opening rule: format/files.py
                data = stream.read()
        except OSError:
            return None
        kept = (data, hashlib.blake2b(data, digest_size=12).hexdigest())
        if len(_kept) >= HASHED_FILES_KEPT:
            del _kept[next(iter(_kept))]
        _kept[path] = kept
    return kept


def _variant(path: Path, hashed: bool) -> tuple[Path, str | None]:
    """The accepted precompressed copy of ``path`` (or ``path``) and its encoding."""
    for name, suffix in accepted_encodings(request.accept_encodings):
        candidate = path.with_name(path.name + suffix)
        if (_hashed_file(str(candidate)) is not None) if hashed else candidate.is_file():
            return candidate, name
    return path, None


def send_static(path: Path, cache_control: str, hashed: bool = False):
    """``path`` (or an accepted precompressed copy of it) with the given Cache-Control;
    ``hashed`` files are answered from memory."""
    mimetype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    chosen, encoding = _variant(path, hashed)
    kept = _hashed_file(str(chosen)) if hashed else None
    if kept is not None:
        response = Response(kept[0], mimetype=mimetype)
        response.set_etag(kept[1])
        response.make_conditional(request)
    else:
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
    @immutable_file  # see the module docstring; other files are small and read from the page cache
    def static_file(filename):
        # safe_join refuses paths that leave the static folder (.., absolute paths).
        joined = safe_join(str(STATIC_DIR), filename)
        if joined is None:
            raise RouteNotFoundError()
        hashed = is_hashed(filename)
        if not (_hashed_file(joined) is not None if hashed else Path(joined).is_file()):
            raise RouteNotFoundError()
        return send_static(Path(joined), IMMUTABLE if hashed else REVALIDATE, hashed)

    @blueprint.route("/graphvizlib.wasm")
    def graphviz_wasm():
        return redirect("static/js/graphvizlib.wasm")

    return blueprint
