"""Who may use the server, decided in the ASGI front before any answer (a reused one too).

* Access token. With a token configured (``--token``, ``MINDINSIGHT_TOKEN``, or made up by
  ``mindinsight start`` for a host beyond loopback) every request must present it, as
  ``Authorization: Bearer <token>``, as ``?token=<token>`` (the address ``mindinsight start``
  prints), or as the cookie an accepted ``?token=`` sets (HttpOnly, SameSite=Strict), so the
  browser UI keeps working after its first page. The ``token`` query parameter is taken out of
  the query before the app (and the answer cache) see it. Tokens are compared in constant time.
* Same origin for state changes. A request with another method than GET/HEAD/OPTIONS whose
  ``Origin`` (or, without one, ``Referer``) names another host:port than its ``Host`` comes
  from a page of another site (cross-site request forgery) and is refused. A request naming
  no origin (curl, scripts) passes: it cannot be a browser's cross-site request. A page
  cannot set ``X-Forwarded-Host`` on a cross-site request without a CORS preflight (which
  this server never grants), so a reverse proxy's ``X-Forwarded-Host`` is matched as well.
"""

import hmac
from urllib.parse import unquote_to_bytes, urlsplit

TOKEN_PARAM = b"token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def cookie_name(port: int) -> str:
    """The token cookie's name: browsers share cookies across a host's ports, so one per port."""
    return f"mindinsight_token_{port}"


def split_token_param(query: bytes) -> tuple[bytes | None, bytes]:
    """The (percent-decoded) ``token`` query value, if any, and the query string without it."""
    token, kept = None, []
    for item in query.split(b"&"):
        name, _, value = item.partition(b"=")
        if name == TOKEN_PARAM:
            token = unquote_to_bytes(value)
        else:
            kept.append(item)
    return token, b"&".join(kept)


class TokenGate:
    """Admits the requests that present the access token."""

    def __init__(self, token: str, port: int, cookie_path: str = "/"):
        self._token = token.encode("ascii")
        self._cookie_name = cookie_name(port).encode("ascii")
        self.set_cookie = (
            b"set-cookie",
            f"{cookie_name(port)}={token}; Path={cookie_path or '/'}; HttpOnly; SameSite=Strict".encode("ascii"),
        )

    def matches(self, presented: bytes) -> bool:
        """Whether ``presented`` is the token; in constant time, so timing tells nothing of it."""
        return hmac.compare_digest(presented, self._token)

    def admit(self, scope: dict) -> tuple[dict, bool] | None:
        """``(scope to serve, whether to set the cookie)`` for a request with the token, else None.

        A ``?token=`` is removed from the query string of the returned scope; when it is the
        right token the answer should set the cookie.
        """
        query = scope["query_string"]
        if TOKEN_PARAM in query:
            presented, rest = split_token_param(query)
            if presented is not None:
                scope = {**scope, "query_string": rest}
                if self.matches(presented):
                    return scope, True
        for name, value in scope["headers"]:
            if name == b"authorization":
                scheme, _, credentials = value.strip().partition(b" ")
                if scheme.lower() == b"bearer" and self.matches(credentials.strip()):
                    return scope, False
            elif name == b"cookie":
                for item in value.split(b";"):
                    key, _, cookie = item.strip().partition(b"=")
                    if key == self._cookie_name and self.matches(cookie):
                        return scope, False
        return None


def _authority(text: str, scheme: str) -> tuple[str, int] | None:
    """``(host, port)`` of a ``Host``-style ``host[:port]``, the port defaulting by ``scheme``."""
    try:
        parts = urlsplit("//" + text.strip())
        return (parts.hostname or "", parts.port or DEFAULT_PORTS[scheme]) if parts.hostname else None
    except ValueError:
        return None


def is_same_origin(headers) -> bool:
    """False when ``Origin`` (else ``Referer``) names another host:port than ``Host``.

    ``headers`` are ASGI header pairs (lower-case byte names). Without either header: True.
    """
    origin = referer = None
    hosts = []
    for name, value in headers:
        if name == b"origin":
            origin = value
        elif name == b"referer":
            referer = value
        elif name == b"host":
            hosts.append(value)
        elif name == b"x-forwarded-host":
            hosts.append(value.split(b",")[0])
    source = origin if origin is not None else referer
    if source is None:
        return True
    try:
        parts = urlsplit(source.decode("latin-1").strip())
        scheme = parts.scheme.lower()
        if scheme not in DEFAULT_PORTS or not parts.hostname:
            return False  # "null" (sandboxed page, privacy redirect) or garbage
        claimed = (parts.hostname, parts.port or DEFAULT_PORTS[scheme])
    except ValueError:
        return False
    return any(_authority(host.decode("latin-1"), scheme) == claimed for host in hosts)
