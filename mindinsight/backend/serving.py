"""The ASGI front of the Flask app: what gunicorn's asyncio worker (``asgi``) serves.

Why a front at all: one worker process serves every request (the state lives in its memory),
so per-request overhead decides latency under load. gunicorn's ``gthread`` worker spends
about 0.5 ms of Python per request on its own (HTTP parsing, thread hand-off, keep-alive
polling) before Flask runs; its asyncio worker with uvloop and the C HTTP parser spends about
0.1 ms (bench/README.md). On top of it:

* views marked ``in_memory`` / ``reusable_answer`` (``view_marks.py``) run on the event loop
  thread itself: they read in-memory data under short locks, so a thread hand-off would cost
  more than the view;
* a ``reusable_answer`` or ``reusable_pooled_answer`` view's 200 answer is kept (keyed by path
  and query string) and served again without calling Flask until the data manager's generation
  moves on, i.e. until anything a query can see has changed; a ``reusable_pooled_answer`` one
  (its answer grows with its query) is computed in the thread pool, so no query can hold the
  loop for long;
* an ``immutable_file`` view's 200 answer that says ``Cache-Control: ... immutable`` (a UI file
  whose name carries its content hash) is kept per path, query and ``Accept-Encoding``, whatever
  the data does; a conditional or range request still goes to Flask. A cold page load asks for
  dozens of such files: each is then a dictionary lookup instead of a Flask request;
* every other request (static files, request bodies, views that may block) runs in a thread
  pool through a2wsgi, as it would under a threaded WSGI server. Its body is read first, on the
  loop, bounded by ``limits.MAX_REQUEST_BODY_BYTES`` (``request_body.py``; 413 beyond).

Before any of that, and so before a reused answer is handed out, the front refuses with a JSON
error: a path + query longer than ``limits.MAX_URL_LENGTH`` (414), a ``Host`` it does not
answer to (403, against DNS rebinding), a request without the access token when one is
configured (401), and a call of a route that changes state from another site's page (403)
(``access.py``). Its own answers carry the security headers every answer carries.
"""

import asyncio
import io
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote_from_bytes

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import build_environ
from werkzeug.exceptions import HTTPException

from mindinsight.backend import request_body, security_headers
from mindinsight.backend.access import (
    SAFE_METHODS,
    HostGate,
    TokenGate,
    host_gate_for,
    is_same_origin,
    trusted_origins,
)
from mindinsight.backend.view_marks import (
    IMMUTABLE_FILE,
    IN_MEMORY,
    REUSABLE,
    REUSABLE_POOLED,
    changes_state,
    mark_of,
)
from mindinsight.conf import limits
from mindinsight.errors import (
    AccessTokenError,
    CrossOriginRequestError,
    HostNotAllowedError,
    MindInsightError,
    RequestBodyTooLargeError,
    UrlTooLongError,
)

# Requests whose answer depends on more than the URL and the accepted encodings.
_CONDITIONAL_HEADERS = (b"if-none-match", b"if-modified-since", b"if-match", b"if-unmodified-since", b"range")
# The generation of kept immutable answers: they stay valid whatever the data does.
_FOREVER = -1

# Bytes a query string may carry unquoted; anything else (non-ASCII) is percent-encoded so
# the WSGI environ can hold it (werkzeug decodes both forms to the same value).
_QUERY_SAFE = b"&=+%/;:,?@!$'()*[]~-._"


@dataclass(frozen=True)
class Answer:
    """A complete response, ready for ASGI ``send``."""

    status: int
    headers: list
    body: bytes

    @property
    def size(self) -> int:
        return len(self.body) + sum(len(name) + len(value) for name, value in self.headers)


class AnswerCache:
    """Answers of reusable views, keyed by request target, valid for one data generation.

    Least recently used answers go first once the total size passes ``max_bytes``.
    """

    def __init__(
        self, max_bytes: int = limits.ANSWER_CACHE_MAX_BYTES, max_entry_bytes: int = limits.ANSWER_CACHE_MAX_ENTRY_BYTES
    ):
        self.max_bytes = max_bytes
        self.max_entry_bytes = max_entry_bytes
        self._entries: OrderedDict[tuple, tuple[int, Answer]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: tuple, generation: int) -> Answer | None:
        """The answer stored for ``key`` at ``generation``, or None."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry[0] != generation:
                self._drop(key)
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key: tuple, generation: int, answer: Answer) -> None:
        """Keep ``answer`` for ``key``, computed when the data was at ``generation``."""
        size = answer.size
        if size > self.max_entry_bytes:
            return
        with self._lock:
            if key in self._entries:
                self._drop(key)
            self._entries[key] = (generation, answer)
            self._bytes += size
            while self._bytes > self.max_bytes:
                self._drop(next(iter(self._entries)))

    def __len__(self) -> int:
        return len(self._entries)

    def _drop(self, key: tuple) -> None:
        _, answer = self._entries.pop(key)
        self._bytes -= answer.size


def error_answer(error: MindInsightError, extra_headers: tuple = ()) -> Answer:
    """The JSON error answer of ``error``, with the security headers (as the app's would be)."""
    body = json.dumps(error.to_json()).encode("utf-8")
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode("ascii")),
        *extra_headers,
    ]
    return Answer(error.http_status, security_headers.add_to(headers, encode=True), body)


URL_TOO_LONG = error_answer(UrlTooLongError(f"A path and query string may hold {limits.MAX_URL_LENGTH} bytes."))
TOKEN_REFUSED = error_answer(AccessTokenError(), extra_headers=((b"www-authenticate", b"Bearer"),))
CROSS_ORIGIN_REFUSED = error_answer(CrossOriginRequestError())
# The unread rest of the body would be taken for the next request: the connection closes.
BODY_TOO_LARGE = error_answer(
    RequestBodyTooLargeError(f"A request body may hold {limits.MAX_REQUEST_BODY_BYTES} bytes."),
    extra_headers=((b"connection", b"close"),),
)
HOST_REFUSED = error_answer(HostNotAllowedError())


def _with_header(send, header: tuple[bytes, bytes]):
    """``send`` adding ``header`` to the response start."""

    async def send_with_header(message):
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), header]}
        await send(message)

    return send_with_header


def _ascii_query(scope: dict) -> dict:
    query = scope.get("query_string", b"")
    if query.isascii():
        return scope
    return {**scope, "query_string": quote_from_bytes(query, safe=_QUERY_SAFE).encode("ascii")}


def _gate_of(flask_app) -> TokenGate | None:
    settings = flask_app.config.get("MI_SETTINGS")
    if settings is None or not settings.token:
        return None
    return TokenGate(settings.token, settings.port, settings.url_path_prefix or "/")


def _host_gate_of(flask_app) -> HostGate | None:
    settings = flask_app.config.get("MI_SETTINGS")
    return None if settings is None else host_gate_for(settings.host, settings.allowed_hosts)


class ServingFront:
    """ASGI app running a Flask (WSGI) app as the module docstring describes."""

    def __init__(
        self,
        flask_app,
        generation: Callable[[], int],
        pool_threads: int = limits.SERVING_POOL_THREADS,
        cache: AnswerCache | None = None,
        gate: TokenGate | None = None,
    ):
        """``gate`` defaults to the token of the app's settings (``MI_SETTINGS``), if it has one;
        the host check and the trusted origins come from those settings too."""
        self.flask_app = flask_app
        self.gate = gate if gate is not None else _gate_of(flask_app)
        self.host_gate = _host_gate_of(flask_app)
        settings = flask_app.config.get("MI_SETTINGS")
        self.trusted_origins = trusted_origins(settings.trusted_origins if settings is not None else ())
        self.generation = generation
        self.cache = cache if cache is not None else AnswerCache()
        self.pooled = WSGIMiddleware(flask_app, workers=pool_threads)
        self._routes = flask_app.url_map.bind("localhost")
        self.view_mark = lru_cache(maxsize=4096)(self._view_mark)
        self.changes_state = lru_cache(maxsize=4096)(self._changes_state)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            await self.pooled(scope, receive, send)
            return
        if len(scope["path"]) + len(scope["query_string"]) > limits.MAX_URL_LENGTH:
            await self._send(send, URL_TOO_LONG)
            return
        if self.host_gate is not None and not self.host_gate.admits(scope["headers"]):
            await self._send(send, HOST_REFUSED)
            return
        if self.gate is not None:
            admitted = self.gate.admit(scope)
            if admitted is None:
                await self._send(send, TOKEN_REFUSED)
                return
            scope, set_cookie = admitted
            if set_cookie:
                send = _with_header(send, self.gate.set_cookie)
        if (
            scope["method"] not in SAFE_METHODS
            and self.changes_state(scope["path"], scope["method"])
            and not is_same_origin(scope["headers"], self.trusted_origins)
        ):
            await self._send(send, CROSS_ORIGIN_REFUSED)
            return
        scope = _ascii_query(scope)
        mark = self.view_mark(scope["path"]) if scope["method"] == "GET" else None
        if mark is None:
            await self._run_pooled(scope, receive, send)
            return
        if mark == IN_MEMORY:
            await self._send(send, self._run_inline(scope))
            return
        if mark == IMMUTABLE_FILE:
            await self._send(send, self._immutable_file(scope))
            return
        key = (scope["path"], scope["query_string"])
        generation = self.generation()  # read before computing: a change meanwhile voids it
        answer = self.cache.get(key, generation)
        if answer is None:
            if mark == REUSABLE_POOLED:
                answer = await asyncio.get_running_loop().run_in_executor(self.pooled.executor, self._run_inline, scope)
            else:
                answer = self._run_inline(scope)
            if answer.status == 200:
                self.cache.put(key, generation, answer)
        await self._send(send, answer)

    def _immutable_file(self, scope) -> Answer:
        """A kept answer of an ``immutable_file`` view, or Flask's (kept if it says immutable)."""
        headers = dict(scope["headers"])
        if any(name in headers for name in _CONDITIONAL_HEADERS):
            return self._run_inline(scope)
        key = (IMMUTABLE_FILE, scope["path"], scope["query_string"], headers.get(b"accept-encoding", b""))
        answer = self.cache.get(key, _FOREVER)
        if answer is None:
            answer = self._run_inline(scope)
            if answer.status == 200 and b"immutable" in dict(answer.headers).get(b"cache-control", b""):
                self.cache.put(key, _FOREVER, answer)
        return answer

    def _view_mark(self, path: str) -> str | None:
        try:
            endpoint, _ = self._routes.match(path, method="GET")
        except HTTPException:  # not found, wrong method, redirect: Flask answers in the pool
            return None
        mark = mark_of(self.flask_app.view_functions.get(endpoint))
        return mark if mark in (IN_MEMORY, REUSABLE, REUSABLE_POOLED, IMMUTABLE_FILE) else None

    async def _run_pooled(self, scope, receive, send) -> None:
        """Read the request body within its limit on the loop, then run Flask in the pool."""
        body = await request_body.read_body(scope, receive)
        if body is request_body.TOO_LARGE:
            await self._send(send, BODY_TOO_LARGE)
        elif body is not request_body.DISCONNECTED:
            await self.pooled(scope, request_body.replaying(body, receive), send)

    def _changes_state(self, path: str, method: str) -> bool:
        try:
            endpoint, _ = self._routes.match(path, method=method)
        except HTTPException:  # no such route or method: refused cross-site all the same
            return True
        return changes_state(self.flask_app.view_functions.get(endpoint))

    def _run_inline(self, scope) -> Answer:
        environ = build_environ(scope, io.BytesIO())
        started = {}

        def start_response(status, headers, exc_info=None):
            started["status"], started["headers"] = status, headers

        iterable = self.flask_app(environ, start_response)
        try:
            body = b"".join(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        headers = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in started["headers"]]
        return Answer(int(started["status"].split(" ", 1)[0]), headers, body)

    @staticmethod
    async def _send(send, answer: Answer) -> None:
        await send({"type": "http.response.start", "status": answer.status, "headers": answer.headers})
        await send({"type": "http.response.body", "body": answer.body})

    @staticmethod
    async def _lifespan(receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
