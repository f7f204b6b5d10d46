"""The ASGI front keeps the UI's content-hashed files whole: a cold page asks for dozens of them,
and each is then served without running Flask (bench/README.md, UI figures)."""

import gzip

import pytest

from mindinsight.backend import ui
from mindinsight.backend.application import create_asgi_app
from mindinsight.backend.security_headers import FIXED_HEADERS
from tests.helpers.apps import make_app
from tests.helpers.asgi import CountingWSGI, asgi_request

SCRIPT = b"console.log('mindinsight');\n" * 100
HASHED = "/static/page-D1ezEm_-.js"
UNHASHED = "/static/notes.txt"


@pytest.fixture
def served(tmp_path, monkeypatch):
    static = tmp_path / "dist" / "static"
    static.mkdir(parents=True)
    (tmp_path / "dist" / "index.html").write_text("<!doctype html><title>MindInsight</title>")
    (static / "page-D1ezEm_-.js").write_bytes(SCRIPT)
    (static / "page-D1ezEm_-.js.gz").write_bytes(gzip.compress(SCRIPT))
    (static / "notes.txt").write_text("may change under its name")
    monkeypatch.setattr(ui, "DIST_DIR", tmp_path / "dist")
    monkeypatch.setattr(ui, "STATIC_DIR", static)
    (tmp_path / "base").mkdir()
    app = make_app(tmp_path / "base")
    counter = CountingWSGI(app.wsgi_app)
    app.wsgi_app = counter
    front = create_asgi_app(app)
    front.counter = counter
    return front


def get(front, path, *headers):
    return asgi_request(front, path, headers=[(name.encode(), value.encode()) for name, value in headers])


def test_hashed_file_is_served_again_without_flask(served):
    first = get(served, HASHED, ("accept-encoding", "gzip"))
    calls = served.counter.calls
    again = get(served, HASHED, ("accept-encoding", "gzip"))
    assert again == first and served.counter.calls == calls
    status, headers, body = first
    assert status == 200 and gzip.decompress(body) == SCRIPT
    assert headers["content-encoding"] == "gzip" and headers["vary"] == "Accept-Encoding"
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    for name, value in FIXED_HEADERS.items():
        assert headers[name.lower()] == value


def test_each_accepted_encoding_keeps_its_own_answer(served):
    get(served, HASHED, ("accept-encoding", "gzip"))
    status, headers, body = get(served, HASHED, ("accept-encoding", "identity"))
    assert status == 200 and body == SCRIPT and "content-encoding" not in headers
    status, headers, body = get(served, HASHED)
    assert status == 200 and body == SCRIPT


def test_conditional_requests_and_changing_files_go_to_flask(served):
    _, headers, _ = get(served, HASHED)
    calls = served.counter.calls
    status, _, body = get(served, HASHED, ("if-none-match", headers["etag"]))
    assert status == 304 and body == b""
    for _ in range(2):
        status, headers, _ = get(served, UNHASHED)
        assert status == 200 and headers["cache-control"] == "no-cache"
    assert served.counter.calls == calls + 3


def test_missing_file_is_not_kept(served):
    for _ in range(2):
        status, _, body = get(served, "/static/gone-D1ezEm_-.js")
        assert status == 404 and b"error_code" in body
    calls = served.counter.calls
    get(served, "/static/gone-D1ezEm_-.js")
    assert served.counter.calls == calls + 1
