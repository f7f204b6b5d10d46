"""A forwarding HTTP proxy that answers S3's ``503 SlowDown`` to the next N requests on demand.

Moto has no way to fail requests on command, so the object-store tests put this in front of it:
the server under test talks to the proxy (``AWS_ENDPOINT_URL`` = ``proxy.endpoint``), which
forwards every request to the store unchanged, except the next ``fail_next(n)`` ones, which it
answers itself with the error S3 sends when throttling. It counts what it forwarded and failed.
"""

import http.client
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.helpers.server import free_port

SLOW_DOWN = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SlowDown</Code>'
    b"<Message>Please reduce your request rate.</Message></Error>"
)
# Hop-by-hop headers are the proxy's own business, never forwarded (RFC 9110 section 7.6.1).
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"}


class FaultProxy:
    """Forwards 127.0.0.1:``port`` to 127.0.0.1:``target_port``; ``fail_next(n)`` injects n 503s."""

    def __init__(self, target_port: int, port: int | None = None):
        self.target_port = target_port
        self.port = port or free_port()
        self.forwarded = 0
        self.failed = 0
        self._to_fail = 0
        self._lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # the tests read counts, not a log
                pass

            def _relay(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                if proxy._take_failure():
                    self.send_response(503, "Slow Down")
                    self.send_header("Content-Type", "application/xml")
                    self.send_header("Content-Length", str(len(SLOW_DOWN)))
                    self.end_headers()
                    self.wfile.write(SLOW_DOWN)
                    return
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                upstream = http.client.HTTPConnection("127.0.0.1", proxy.target_port, timeout=60)
                try:
                    upstream.request(self.command, self.path, body=body, headers=headers)
                    answer = upstream.getresponse()
                    payload = answer.read()
                finally:
                    upstream.close()
                self.send_response(answer.status, answer.reason)
                for name, value in answer.getheaders():
                    if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(payload)
                with proxy._lock:
                    proxy.forwarded += 1

            do_GET = do_PUT = do_POST = do_HEAD = do_DELETE = _relay

        self._httpd = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="fault-proxy", daemon=True)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _take_failure(self) -> bool:
        with self._lock:
            if self._to_fail > 0:
                self._to_fail -= 1
                self.failed += 1
                return True
            return False

    def fail_next(self, count: int) -> None:
        """Answer ``503 SlowDown`` to the next ``count`` requests (replacing any count still pending)."""
        with self._lock:
            self._to_fail = count

    @property
    def pending_failures(self) -> int:
        with self._lock:
            return self._to_fail

    def __enter__(self) -> "FaultProxy":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
