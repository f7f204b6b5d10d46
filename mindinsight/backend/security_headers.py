"""Headers every response carries (docs/BEHAVIOUR.md §1), and the Server header.

Added by a WSGI middleware from a prebuilt list rather than a Flask ``after_request`` hook:
werkzeug's ``Headers.update`` validates and rewrites every header on every response, which
cost a quarter of a cached scalar answer's time in Flask. The ASGI front adds them to the
answers it makes itself (``add_to``); answers it reuses were Flask's and carry them already.

``Cache-Control: no-store`` (with ``Pragma: no-cache``) is only the default: an answer whose
view chose its own caching (content-hashed static files, images) keeps its Cache-Control.
"""

ALLOWED_METHODS = "GET, POST, PUT, DELETE"
# Besides its own pages, pages served on loopback (any port) may frame the dashboard: Jupyter's
# %mindinsight shows it in the notebook (mindinsight/notebook.py). Browsers that honour
# frame-ancestors ignore X-Frame-Options then; CSP cannot name [::1], and http: covers https:.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
    "frame-src 'self'; frame-ancestors 'self' http://localhost:* http://127.0.0.1:*; script-src 'self' 'unsafe-eval'"
)
FIXED_HEADERS = {
    "X-Frame-Options": "SAMEORIGIN",
    "X-XSS-Protection": "1; mode=block",
    "X-Content-Type-Options": "nosniff",
    "Access-Control-Allow-Methods": ALLOWED_METHODS,
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Download-Options": "noopen",
    # The page address may carry ?token=: never send it to another site in a Referer.
    "Referrer-Policy": "same-origin",
    # The original answers with "Server: unknown": do not advertise the server's version.
    # A Server header from the app also keeps gunicorn from adding its own.
    "Server": "unknown",
}
DEFAULT_CACHING = {"Cache-Control": "no-store", "Pragma": "no-cache"}
HEADERS = {**FIXED_HEADERS, **DEFAULT_CACHING}  # what an answer that chose no caching carries

_FIXED_LIST = list(FIXED_HEADERS.items())
_ALL_LIST = list(HEADERS.items())
_FIXED_NAMES = frozenset(name.lower() for name in FIXED_HEADERS)
_ALL_NAMES = frozenset(name.lower() for name in HEADERS)
_ENCODED_FIXED = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in _FIXED_LIST]
_ENCODED_ALL = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in _ALL_LIST]


def add_to(headers: list, encode: bool = False) -> list:
    """``headers`` (name, value) pairs with the security headers, replacing same-named ones.

    Pairs are ``str`` (WSGI), or lower-case ``bytes`` (ASGI) with ``encode``. A Cache-Control
    already there is kept, and then no Pragma is added.
    """
    if encode:
        chose_caching = any(name == b"cache-control" for name, _ in headers)
        names, added = (_FIXED_NAMES, _ENCODED_FIXED) if chose_caching else (_ALL_NAMES, _ENCODED_ALL)
        return [item for item in headers if item[0].decode("latin-1") not in names] + added
    chose_caching = any(name.lower() == "cache-control" for name, _ in headers)
    names, added = (_FIXED_NAMES, _FIXED_LIST) if chose_caching else (_ALL_NAMES, _ALL_LIST)
    return [item for item in headers if item[0].lower() not in names] + added


class SecurityHeadersMiddleware:
    """Wrap a WSGI app so each response carries the security headers (``add_to``)."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        def start_with_headers(status, headers, exc_info=None):
            return start_response(status, add_to(headers), exc_info)

        return self.wsgi_app(environ, start_with_headers)


def register(app) -> None:
    """Install the middleware on a Flask app."""
    app.wsgi_app = SecurityHeadersMiddleware(app.wsgi_app)
