"""Request bodies read by the serving front, bounded by ``limits.MAX_REQUEST_BODY_BYTES``.

The front reads a body on the event loop before a pool thread runs the view: a declared
``Content-Length`` over the limit is refused before a byte is read, a chunked body as soon as
the bytes received pass it, so no request holds more than the limit in memory. Reading it on
the loop also means a slow upload never holds a pool thread.
"""

from mindinsight.conf import limits

TOO_LARGE = "too_large"
DISCONNECTED = "disconnected"


def declared_length(headers) -> int | None:
    """The request's ``Content-Length`` (gunicorn has checked that it is one number), or None."""
    for name, value in headers:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def read_body(scope, receive, max_bytes: int = limits.MAX_REQUEST_BODY_BYTES) -> bytes | str:
    """The whole body, ``TOO_LARGE`` once it passes ``max_bytes`` (the rest is left unread), or
    ``DISCONNECTED`` when the client went away before sending it all."""
    length = declared_length(scope["headers"])
    if length is not None and length > max_bytes:
        return TOO_LARGE
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return DISCONNECTED
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > max_bytes:
            return TOO_LARGE
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def replaying(body: bytes, receive):
    """An ASGI ``receive`` that hands out ``body`` whole, then defers to ``receive`` (which then
    reports the client's disconnect)."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive_again():
        return pending.pop() if pending else await receive()

    return receive_again
