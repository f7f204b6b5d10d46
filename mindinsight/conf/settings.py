"""Runtime settings: defaults, overridden by MINDINSIGHT_* environment variables.

The CLI passes its options to the server process through these same variables, so the
gunicorn worker and a plain ``create_app()`` read settings one way.
"""

import json
import os
import re
from dataclasses import dataclass, field, fields

from mindinsight.conf import limits
from mindinsight.conf.origins import allowed_host, is_loopback_host, trusted_origin
from mindinsight.conf.token_strength import token_strength_bits

ENV_PREFIX = "MINDINSIGHT_"
_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")
# Characters that pass through a URL query and a cookie unchanged (secrets.token_urlsafe's alphabet, and '.~').
TOKEN_PATTERN = re.compile(rf"^[A-Za-z0-9_.~-]{{{limits.MIN_TOKEN_LENGTH},{limits.MAX_TOKEN_LENGTH}}}$")


def token_problem(token: str) -> str | None:
    """Why ``token`` cannot be an access token, or None when it can (the empty string means none)."""
    if token == "":
        return None
    if not TOKEN_PATTERN.match(token):
        return (
            f"the access token must be {limits.MIN_TOKEN_LENGTH}..{limits.MAX_TOKEN_LENGTH} characters "
            f"of letters, digits, '_', '-', '.', '~'"
        )
    if token_strength_bits(token) < limits.MIN_TOKEN_BITS:
        return (
            f"the access token is too easy to guess (about {token_strength_bits(token):.0f} bits, at least "
            f"{limits.MIN_TOKEN_BITS} needed: avoid repeated characters, runs like 1234 and repeated parts); "
            "make one with: python3 -c 'import secrets; print(secrets.token_urlsafe(32))'"
        )
    return None


def base_dir_location(text: str) -> str:
    """The base dir as the server uses it: an object-store URL (``s3://bucket/prefix``) without
    its trailing slash, else the real, user-expanded local path (a ``file://`` URL is local)."""
    if _URL.match(text) and not text.lower().startswith("file://"):
        return text.rstrip("/")
    if text.lower().startswith("file://"):
        text = text[len("file://") :]
    return os.path.realpath(os.path.expanduser(text))


def parse_storage_options(text: str) -> dict:
    """The storage options given as a JSON object; ValueError when it is not one."""
    try:
        value = json.loads(text)
    except ValueError as error:
        raise ValueError(f"the storage options are not valid JSON: {error}") from None
    if not isinstance(value, dict):
        raise ValueError('the storage options must be a JSON object, e.g. {"anon": true}')
    return value


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (127.0.0.0/8, ::1, ``localhost``); a
    host name may resolve to anything."""
    return is_loopback_host(host)


@dataclass(frozen=True)
class Settings:
    """Settings of one server instance."""

    summary_base_dir: str = "."
    workspace: str = "~/mindinsight"
    port: int = 8080
    host: str = "127.0.0.1"
    reload_interval: int = 3
    url_path_prefix: str = ""
    # Empty: no token asked for. `mindinsight start` makes one up for a host beyond loopback.
    token: str = field(default="", repr=False)
    # Host names (besides loopback's) the server answers to; see backend/access.py HostGate.
    allowed_hosts: tuple[str, ...] = ()
    # Origins whose pages may change state besides the server's own (a reverse proxy's).
    trusted_origins: tuple[str, ...] = ()
    # A JSON object of fsspec storage options for an object-store base dir (may hold secrets).
    storage_options: str = field(default="", repr=False)
    # Where tags and remarks are kept: an SQLAlchemy URL (postgresql://user:pw@host/db; may hold a
    # password). Empty: SQLite in the workspace (``edits_database_url``).
    database_url: str = field(default="", repr=False)

    @classmethod
    def from_env(cls, environ=None, **overrides) -> "Settings":
        """Build settings from defaults, then ``MINDINSIGHT_<NAME>`` variables, then overrides."""
        environ = os.environ if environ is None else environ
        values = {}
        for item in fields(cls):
            raw = environ.get(ENV_PREFIX + item.name.upper())
            if raw is not None:
                values[item.name] = _from_env_text(item.type, raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        settings = cls(**values)
        return settings.resolved()

    def resolved(self) -> "Settings":
        """Absolute, user-expanded paths; raises ValueError for a malformed token."""
        problem = token_problem(self.token)
        if problem:
            raise ValueError(problem)
        return Settings(
            summary_base_dir=base_dir_location(self.summary_base_dir),
            workspace=os.path.realpath(os.path.expanduser(self.workspace)),
            port=int(self.port),
            host=self.host,
            reload_interval=int(self.reload_interval),
            url_path_prefix=self.url_path_prefix.rstrip("/"),
            token=self.token,
            allowed_hosts=tuple(dict.fromkeys(allowed_host(host) for host in self.allowed_hosts)),
            trusted_origins=tuple(dict.fromkeys(trusted_origin(origin) for origin in self.trusted_origins)),
            storage_options=self.storage_options,
            database_url=self.database_url,
        )

    @property
    def storage_options_dict(self) -> dict:
        """``storage_options`` parsed (``{}`` when none were given)."""
        return parse_storage_options(self.storage_options) if self.storage_options else {}

    @property
    def edits_database_url(self) -> str:
        """The database of edits: ``database_url``, else ``<workspace>/lineage/edits.db`` (SQLite)."""
        return self.database_url or "sqlite:///" + os.path.join(self.workspace, "lineage", "edits.db")

    def to_env(self) -> dict[str, str]:
        """The environment variables that reproduce these settings in another process."""
        return {ENV_PREFIX + f.name.upper(): _to_env_text(getattr(self, f.name)) for f in fields(self)}


def _from_env_text(kind, raw: str):
    if kind in (int, "int"):
        return int(raw)
    if kind == tuple[str, ...]:  # a comma-separated list
        return tuple(item.strip() for item in raw.split(",") if item.strip())
    return raw


def _to_env_text(value) -> str:
    return ",".join(value) if isinstance(value, tuple) else str(value)
