"""Host names and web origins, read one way for the options (``--allowed-host``,
``--trusted-origin``) and for the requests' ``Host``, ``Origin`` and ``Referer`` headers."""

import ipaddress
import re
from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
_HOST_NAME = re.compile(r"^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$")

Origin = tuple[str, str, int]  # (scheme, host, port), the port spelled out


def normal_host(host: str) -> str | None:
    """``host`` (a name or an IP address, IPv6 with or without brackets) in one spelling:
    lower case, an IPv6 address compressed; None when it is neither."""
    host = host.strip().lower()
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        return str(ipaddress.ip_address(bare))
    except ValueError:
        return host if _HOST_NAME.match(host) else None


def is_loopback_host(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1), in any spelling."""
    host = normal_host(host) or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_of(header: str) -> str | None:
    """The normal host of a ``Host`` header ``name[:port]``, ``[v6][:port]``; None when malformed."""
    try:
        parts = urlsplit("//" + header.strip())
        parts.port  # noqa: B018 -- raises ValueError for a port that is not a number in range
    except ValueError:
        return None
    if not parts.hostname or parts.username is not None or parts.path or parts.query or parts.fragment:
        return None
    return normal_host(parts.hostname)


def authority_of(header: str, scheme: str) -> tuple[str, int] | None:
    """``(host, port)`` of a ``Host``-style header, the port defaulting by ``scheme``."""
    host = host_of(header)
    if host is None:
        return None
    port = urlsplit("//" + header.strip()).port
    return host, port or DEFAULT_PORTS[scheme]


def origin_of(url: str) -> Origin | None:
    """``(scheme, host, port)`` of an ``Origin`` or ``Referer`` value; None for ``null`` or garbage."""
    try:
        parts = urlsplit(url.strip())
        scheme = parts.scheme.lower()
        if scheme not in DEFAULT_PORTS or not parts.hostname:
            return None
        host = normal_host(parts.hostname)
        return (scheme, host, parts.port or DEFAULT_PORTS[scheme]) if host else None
    except ValueError:
        return None


def allowed_host(text: str) -> str:
    """The normal spelling of an ``--allowed-host`` value; ValueError unless a bare name or address."""
    host = normal_host(text)
    if host is None:
        raise ValueError(f"an allowed host is a host name or an IP address without port or scheme, got {text!r}")
    return host


def trusted_origin(text: str) -> str:
    """The normal spelling of a ``--trusted-origin`` value (``scheme://host[:port]``); ValueError else."""
    try:
        parts = urlsplit(text.strip())
        bare = not (parts.username or parts.password or parts.query or parts.fragment) and parts.path in ("", "/")
    except ValueError:
        bare = False
    origin = origin_of(text) if bare else None
    if origin is None or origin[0] not in ("http", "https"):
        raise ValueError(f"a trusted origin is http(s)://host[:port] as a browser sends it, got {text!r}")
    scheme, host, port = origin
    spelled = f"[{host}]" if ":" in host else host
    return f"{scheme}://{spelled}" + ("" if port == DEFAULT_PORTS[scheme] else f":{port}")
