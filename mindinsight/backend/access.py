"""Who may use the server, decided in the ASGI front before any answer (a reused one too).

* Access token. With a token configured (``--token``, ``MINDINSIGHT_TOKEN``, or made up by
  ``mindinsight start`` for a host beyond loopback) every request must present it, as
  ``Authorization: Bearer <token>``, as ``?token=<token>`` (the address ``mindinsight start``
  prints), or as the cookie an accepted ``?token=`` sets (HttpOnly, SameSite=Strict), so the
  browser UI keeps working after its first page. The ``token`` query parameter is taken out of
  the query before the app (and the answer cache) see it. Tokens are compared in constant time.
* Known hosts (against DNS rebinding). A page of another site can make its own name resolve
  to 127.0.0.1; the browser then sends it to this server as same-origin, with the page's
  name in ``Host``. Bound to loopback, the server answers only a ``Host`` that is a loopback
  name or address (``localhost``, 127.0.0.0/8, ``[::1]``, any port), its own bind address or
  a host of ``--allowed-host``. Bound beyond loopback a token is asked already (a rebound page
  has no cookie of this server's name), so the ``Host`` is checked only when ``--allowed-host``
  names the hosts to answer (loopback names and the bind address stay allowed).
* Same origin for state changes. A request to a route that changes state (PUT, DELETE, a POST
  that writes: ``changes_state`` of the route declarations) whose ``Origin`` (or, without one,
  ``Referer``) names another host:port than its ``Host`` comes from a page of another site
  (cross-site request forgery) and is refused, unless that origin is a ``--trusted-origin``
  (a reverse proxy's public address: the proxy rewrites ``Host``). A POST that only reads
  passes: a page of another site cannot read the answer. A request naming no origin (curl,
  scripts) passes: it cannot be a browser's cross-site request. A page cannot set
  ``X-Forwarded-Host`` on a cross-site request without a CORS preflight (which this server
  never grants), so a reverse proxy's ``X-Forwarded-Host`` is matched as well.
"""

import hmac
from collections.abc import Iterable
from urllib.parse import unquote_to_bytes

from mindinsight.conf.origins import Origin, authority_of, host_of, is_loopback_host, normal_host, origin_of
from mindinsight.conf.settings import is_loopback

TOKEN_PARAM = b"token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


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


class HostGate:
    """Admits the requests whose ``Host`` is a loopback name or address, or one of ``allowed``."""

    def __init__(self, allowed: Iterable[str]):
        self._allowed = frozenset(normal_host(host) for host in allowed) - {None}

    def admits(self, headers) -> bool:
        """Whether every ``Host`` header of the request (ASGI pairs) names an allowed host; a
        request without one is no browser's, but not answered either: HTTP/1.1 requires it."""
        hosts = [host_of(value.decode("latin-1")) for name, value in headers if name == b"host"]
        return bool(hosts) and all(self._is_allowed(host) for host in hosts)

    def _is_allowed(self, host: str | None) -> bool:
        return host is not None and (host in self._allowed or is_loopback_host(host))


def host_gate_for(bind_host: str, allowed_hosts: tuple[str, ...]) -> HostGate | None:
    """The host check of a server bound to ``bind_host`` (see the module docstring); None: none."""
    if not is_loopback(bind_host) and not allowed_hosts:
        return None
    return HostGate((*allowed_hosts, bind_host))


def trusted_origins(origins: Iterable[str]) -> frozenset[Origin]:
    """The parsed ``--trusted-origin`` values, for ``is_same_origin``."""
    return frozenset(origin for origin in map(origin_of, origins) if origin is not None)


def is_same_origin(headers, trusted: frozenset[Origin] = frozenset()) -> bool:
    """False when ``Origin`` (else ``Referer``) names another host:port than ``Host`` and is not
    one of the ``trusted`` origins.

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
    claimed = origin_of(source.decode("latin-1"))
    if claimed is None:
        return False  # "null" (sandboxed page, privacy redirect) or garbage
    if claimed in trusted:
        return True
    scheme, host, port = claimed
    return any(authority_of(value.decode("latin-1"), scheme) == (host, port) for value in hosts)
