"""Headers every response carries (rest-api.md section 0)."""
from flask import Flask

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
}


def register(app: Flask) -> None:
    @app.after_request
    def _add_headers(response):
        response.headers.update(HEADERS)
        return response
