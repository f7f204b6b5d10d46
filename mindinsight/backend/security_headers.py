"""Headers every response carries (rest-api.md section 0), and the Server header.

Added by a WSGI middleware from a prebuilt list rather than a Flask ``after_request`` hook:
werkzeug's ``Headers.update`` validates and rewrites every header on every response, which
cost a quarter of a cached scalar answer's time in Flask.
"""
ALLOWED_METHODS = "GET, POST, PUT, DELETE"
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
    "frame-src 'self'; frame-ancestors 'self'; script-src 'self' 'unsafe-eval'"
)
HEADERS = {
    "X-Frame-Options": "SAMEORIGIN",
    "X-XSS-Protection": "1; mode=block",
    "X-Content-Type-Options": "nosniff",
    "Access-Control-Allow-Methods": ALLOWED_METHODS,
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Download-Options": "noopen",
    "Cache-Control": "no-store",
    "Pragma": "no-cache",
    # The original answers with "Server: unknown": do not advertise the server's version.
    # A Server header from the app also keeps gunicorn from adding its own.
    "Server": "unknown",
}
_HEADER_LIST = list(HEADERS.items())
_HEADER_NAMES = frozenset(name.lower() for name in HEADERS)


class SecurityHeadersMiddleware:
    """Wrap a WSGI app so each response carries ``HEADERS``, replacing any same-named header."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        def start_with_headers(status, headers, exc_info=None):
            kept = [item for item in headers if item[0].lower() not in _HEADER_NAMES]
            return start_response(status, kept + _HEADER_LIST, exc_info)
        return self.wsgi_app(environ, start_with_headers)


def register(app) -> None:
    """Install the middleware on a Flask app."""
    app.wsgi_app = SecurityHeadersMiddleware(app.wsgi_app)
