"""Runtime settings: defaults, overridden by MINDINSIGHT_* environment variables.

The CLI passes its options to the server process through these same variables, so the
gunicorn worker and a plain ``create_app()`` read settings one way.
"""

import ipaddress
import os
import re
from dataclasses import dataclass, field, fields

from mindinsight.conf import limits

ENV_PREFIX = "MINDINSIGHT_"
# Characters that pass through a URL query and a cookie unchanged (secrets.token_urlsafe's alphabet, and '.~').
TOKEN_PATTERN = re.compile(rf"^[A-Za-z0-9_.~-]{{{limits.MIN_TOKEN_LENGTH},{limits.MAX_TOKEN_LENGTH}}}$")


def token_problem(token: str) -> str | None:
    """Why ``token`` cannot be an access token, or None when it can (the empty string means none)."""
    if token == "" or TOKEN_PATTERN.match(token):
        return None
    return (
        f"the access token must be {limits.MIN_TOKEN_LENGTH}..{limits.MAX_TOKEN_LENGTH} characters "
        f"of letters, digits, '_', '-', '.', '~'"
    )


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (127.0.0.0/8, ::1, ``localhost``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to anything


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

    @classmethod
    def from_env(cls, environ=None, **overrides) -> "Settings":
        """Build settings from defaults, then ``MINDINSIGHT_<NAME>`` variables, then overrides."""
        environ = os.environ if environ is None else environ
        values = {}
        for item in fields(cls):
            raw = environ.get(ENV_PREFIX + item.name.upper())
            if raw is not None:
                values[item.name] = int(raw) if item.type in (int, "int") else raw
        values.update({k: v for k, v in overrides.items() if v is not None})
        settings = cls(**values)
        return settings.resolved()

    def resolved(self) -> "Settings":
        """Absolute, user-expanded paths; raises ValueError for a malformed token."""
        problem = token_problem(self.token)
        if problem:
            raise ValueError(problem)
        return Settings(
            summary_base_dir=os.path.realpath(os.path.expanduser(self.summary_base_dir)),
            workspace=os.path.realpath(os.path.expanduser(self.workspace)),
            port=int(self.port),
            host=self.host,
            reload_interval=int(self.reload_interval),
            url_path_prefix=self.url_path_prefix.rstrip("/"),
            token=self.token,
        )

    def to_env(self) -> dict[str, str]:
        """The environment variables that reproduce these settings in another process."""
        return {ENV_PREFIX + f.name.upper(): str(getattr(self, f.name)) for f in fields(self)}
