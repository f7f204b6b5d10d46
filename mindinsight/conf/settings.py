"""Runtime settings: defaults, overridden by MINDINSIGHT_* environment variables.

The CLI passes its options to the server process through these same variables, so the
gunicorn worker and a plain ``create_app()`` read settings one way.
"""
import os
from dataclasses import dataclass, fields

ENV_PREFIX = "MINDINSIGHT_"


@dataclass(frozen=True)
class Settings:
    """Settings of one server instance."""

    summary_base_dir: str = "."
    workspace: str = "~/mindinsight"
    port: int = 8080
    host: str = "127.0.0.1"
    reload_interval: int = 3
    url_path_prefix: str = ""

    @classmethod
    def from_env(cls, environ=None, **overrides) -> "Settings":
        """Build settings from defaults, then ``MINDINSIGHT_<NAME>`` variables, then overrides."""
        environ = os.environ if environ is None else environ
        values = {}
        for field in fields(cls):
            raw = environ.get(ENV_PREFIX + field.name.upper())
            if raw is not None:
                values[field.name] = int(raw) if field.type in (int, "int") else raw
        values.update({k: v for k, v in overrides.items() if v is not None})
        settings = cls(**values)
        return settings.resolved()

    def resolved(self) -> "Settings":
        """Absolute, user-expanded paths."""
        return Settings(
            summary_base_dir=os.path.realpath(os.path.expanduser(self.summary_base_dir)),
            workspace=os.path.realpath(os.path.expanduser(self.workspace)),
            port=int(self.port),
            host=self.host,
            reload_interval=int(self.reload_interval),
            url_path_prefix=self.url_path_prefix.rstrip("/"),
        )

    def to_env(self) -> dict[str, str]:
        """The environment variables that reproduce these settings in another process."""
        return {ENV_PREFIX + f.name.upper(): str(getattr(self, f.name)) for f in fields(self)}
