"""Static files of the UI: precompressed variants chosen by Accept-Encoding, caching by name.

Tested on the UI blueprint (with the app's JSON errors) over a small dist folder made here, so the answers are the
blueprint's own (headers the whole app adds on top are another module's business).
"""

import gzip

import pytest
from flask import Flask

from mindinsight.backend import errors_json, ui

SCRIPT = b"console.log('mindinsight');\n" * 100
BROTLI_BYTES = b"\x1b stand-in for brotli bytes: served as they are, never decoded"


@pytest.fixture
def dist(tmp_path, monkeypatch):
    dist = tmp_path / "dist"
    static = dist / "static"
    (static / "js").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>MindInsight</title>")
    (static / "index-D1ezEm_-.js").write_bytes(SCRIPT)
    (static / "index-D1ezEm_-.js.gz").write_bytes(gzip.compress(SCRIPT))
    (static / "index-D1ezEm_-.js.br").write_bytes(BROTLI_BYTES)
    (static / "tiny-Ab12Cd34.css").write_text("a{}")  # under the threshold: no compressed copy
    (static / "js" / "graphvizlib.wasm").write_bytes(b"\0asm")
    monkeypatch.setattr(ui, "DIST_DIR", dist)
    monkeypatch.setattr(ui, "STATIC_DIR", static)
    return dist


@pytest.fixture
def client(dist):
    app = Flask(__name__, static_folder=None)
    app.register_blueprint(ui.create_blueprint())
    errors_json.register(app)
    return app.test_client()


SCRIPT_URL = "/static/index-D1ezEm_-.js"


def test_brotli_preferred_when_accepted(client):
    response = client.get(SCRIPT_URL, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "br"
    assert response.data == BROTLI_BYTES
    assert response.mimetype == "text/javascript"
    assert response.headers["Vary"] == "Accept-Encoding"


def test_gzip_when_only_gzip_accepted(client):
    response = client.get(SCRIPT_URL, headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.data) == SCRIPT
    assert response.mimetype == "text/javascript"


@pytest.mark.parametrize("accept", [None, "identity", "br;q=0, gzip;q=0", "deflate"])
def test_plain_bytes_otherwise(client, accept):
    headers = {"Accept-Encoding": accept} if accept is not None else {}
    response = client.get(SCRIPT_URL, headers=headers)
    assert "Content-Encoding" not in response.headers
    assert response.data == SCRIPT
    assert response.headers["Vary"] == "Accept-Encoding"


def test_small_file_without_compressed_copy_is_sent_plain(client):
    response = client.get("/static/tiny-Ab12Cd34.css", headers={"Accept-Encoding": "gzip, br"})
    assert response.data == b"a{}" and "Content-Encoding" not in response.headers
    assert response.mimetype == "text/css"


def test_hashed_names_are_immutable_others_revalidated(client):
    assert client.get(SCRIPT_URL).headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert client.get("/static/tiny-Ab12Cd34.css").headers["Cache-Control"] == ui.IMMUTABLE
    assert client.get("/static/js/graphvizlib.wasm").headers["Cache-Control"] == "no-cache"
    index = client.get("/")
    assert index.status_code == 200 and b"MindInsight" in index.data
    assert index.headers["Cache-Control"] == "no-cache"


def test_revalidation_answers_304_per_variant(client):
    first = client.get(SCRIPT_URL, headers={"Accept-Encoding": "br"})
    again = client.get(SCRIPT_URL, headers={"Accept-Encoding": "br", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    plain = client.get(SCRIPT_URL)
    assert plain.headers["ETag"] != first.headers["ETag"]


@pytest.mark.parametrize(
    "path", ["/static/missing-Ab12Cd34.js", "/static/..%2F..%2Findex.html", "/static/../index.html", "/static/js"]
)
def test_missing_or_escaping_paths_are_not_found(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response.get_json()["error_code"] == "50545001"


def test_no_built_ui_is_not_found(client, dist):
    (dist / "index.html").unlink()
    response = client.get("/")
    assert response.status_code == 404 and response.get_json()["error_code"] == "50545001"


@pytest.mark.parametrize(
    ("name", "hashed"),
    [
        ("index-D1ezEmfn.js", True),
        ("TrainingDashboard-Bxw5k0yl.css", True),
        ("a/b-Ab_-1234.woff2", True),
        ("graphvizlib.wasm", False),
        ("index.js", False),
        ("name-short.js", False),
    ],
)
def test_is_hashed(name, hashed):
    assert ui.is_hashed(name) is hashed


def test_whole_app_keeps_the_caching_and_encoding_of_static_files(dist, empty_app):
    """The security-headers layer adds its headers but leaves the UI's caching alone."""
    client = empty_app.test_client()
    script = client.get(SCRIPT_URL, headers={"Accept-Encoding": "gzip"})
    assert script.status_code == 200 and gzip.decompress(script.data) == SCRIPT
    assert script.headers["Cache-Control"] == ui.IMMUTABLE
    assert script.headers["Content-Encoding"] == "gzip"
    assert script.headers["X-Content-Type-Options"] == "nosniff"
    assert client.get("/").headers["Cache-Control"] == "no-cache"
    # API answers keep the default.
    assert client.get("/v1/mindinsight/ui-config").headers["Cache-Control"] == "no-store"


def test_hashed_files_are_served_from_memory_once_read(client, dist):
    first = client.get(SCRIPT_URL, headers={"Accept-Encoding": "br"})
    (dist / "static" / "index-D1ezEm_-.js.br").unlink()  # a hashed name never changes: kept bytes stay true
    again = client.get(SCRIPT_URL, headers={"Accept-Encoding": "br"})
    assert again.data == first.data == BROTLI_BYTES and again.headers["ETag"] == first.headers["ETag"]


def test_a_hashed_file_missing_at_first_is_found_once_built(client, dist):
    url = "/static/later-Zz98Yy76.js"
    assert client.get(url).status_code == 404
    (dist / "static" / "later-Zz98Yy76.js").write_text("export {}")
    assert client.get(url).data == b"export {}"


def test_static_files_run_on_the_event_loop():
    from mindinsight.backend.view_marks import IMMUTABLE_FILE, ON_LOOP_MARKS, mark_of

    app = Flask(__name__, static_folder=None)
    app.register_blueprint(ui.create_blueprint())
    assert mark_of(app.view_functions["ui.static_file"]) == IMMUTABLE_FILE
    assert IMMUTABLE_FILE in ON_LOOP_MARKS
