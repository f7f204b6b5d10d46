"""Drive an ASGI app (the serving front) with one HTTP request, in-process."""

import asyncio


def asgi_request(
    app,
    path: str,
    query: bytes = b"",
    method: str = "GET",
    body: bytes = b"",
    headers: list[tuple[bytes, bytes]] | None = None,
    host: bytes = b"127.0.0.1",
):
    """Run one request through ``app``; ``(status, headers, body)``.

    ``headers`` of the answer is a dict of lower-case names; a name sent several times
    (``set-cookie``) keeps its last value. ``host`` is the Host header (none when empty).
    """
    sent = []
    incoming = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive():
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    request_headers = [(b"host", host)] if host else []
    if body:
        request_headers += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    request_headers += headers or []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": request_headers,
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8080),
    }
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    payload = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    answer_headers = {name.decode().lower(): value.decode() for name, value in start["headers"]}
    return start["status"], answer_headers, payload


class CountingWSGI:
    """Counts the requests that reach Flask."""

    def __init__(self, wsgi_app):
        self.wsgi_app, self.calls = wsgi_app, 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.wsgi_app(environ, start_response)
