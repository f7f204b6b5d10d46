"""The ``mindinsight`` command: ``start``, ``stop``, ``--version``, ``--help``."""

import argparse
import re
import sys

from mindinsight import __version__
from mindinsight.conf import limits
from mindinsight.conf.origins import allowed_host, trusted_origin
from mindinsight.conf.settings import Settings, parse_storage_options, token_problem

URL_SEGMENT = re.compile(r"^[a-zA-Z0-9_\-.]+$")


def port_number(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port must be an integer, got {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be in 1..65535, got {port}")
    return port


def reload_interval(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"reload interval must be an integer, got {text!r}") from None
    if not 0 <= value <= limits.MAX_RELOAD_INTERVAL:
        raise argparse.ArgumentTypeError(
            f"reload interval must be in 0..{limits.MAX_RELOAD_INTERVAL} seconds, got {value}"
        )
    return value


def url_path_prefix(text: str) -> str:
    """``/a/b`` from ``a/b``, ``/a/b/`` or ``/a/b``; each segment of ``[a-zA-Z0-9_-.]``."""
    segments = text.strip("/").split("/") if text.strip("/") else []
    for segment in segments:
        if not URL_SEGMENT.match(segment) or segment in (".", ".."):
            raise argparse.ArgumentTypeError(
                f"url path prefix segments may hold only letters, digits, '_', '-', '.' "
                f"and may not be '.' or '..': {text!r}"
            )
    return "/" + "/".join(segments) if segments else ""


def access_token(text: str) -> str:
    problem = token_problem(text)
    if problem or not text:
        raise argparse.ArgumentTypeError(problem or "the access token may not be empty")
    return text


def storage_options(text: str) -> str:
    """``--storage-options``: a JSON object (kept as its text)."""
    parse_storage_options(text)
    return text


def database_url(text: str) -> str:
    """``--database-url``: a postgresql:// or sqlite:// URL (kept as its text)."""
    if not re.match(r"^(postgresql(\+psycopg)?|sqlite)://", text):
        raise ValueError(f"the database URL must start with postgresql:// or sqlite://, got {text.split(':', 1)[0]!r}")
    return text


def _checked(parse):
    """An argparse ``type`` from a parser raising ValueError with a message for the user."""

    def check(text: str) -> str:
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    check.__name__ = parse.__name__
    return check


def _add_repeatable(parser: argparse.ArgumentParser, flag: str, parse, help: str) -> None:
    """A ``--<what>-<noun>`` option given any number of times: the list ``<what>_<noun>s`` of
    values checked by ``parse``, each shown as ``<NOUN>``."""
    parser.add_argument(
        flag,
        dest=flag[2:].replace("-", "_") + "s",
        action="append",
        type=_checked(parse),
        metavar=flag.rsplit("-", 1)[1].upper(),
        help=help,
    )


def add_start_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``start`` (also those of the notebook's ``%mindinsight``)."""
    parser.add_argument(
        "--summary-base-dir",
        help="directory holding the train jobs, or an object-store URL such as s3://bucket/prefix "
        "(default: current directory)",
    )
    parser.add_argument(
        "--storage-options",
        type=_checked(storage_options),
        metavar="JSON",
        help="fsspec options for an object-store base dir, as a JSON object, e.g. '{\"anon\": true}' "
        "(default: the store's standard environment variables and config files)",
    )
    parser.add_argument("--port", type=port_number, help="port to listen on (default: 8080)")
    parser.add_argument("--workspace", help="directory for logs (default: ~/mindinsight)")
    parser.add_argument(
        "--reload-interval", type=reload_interval, help="seconds between reloads of the logs; 0 loads once (default: 3)"
    )
    parser.add_argument(
        "--url-path-prefix",
        type=url_path_prefix,
        help="serve everything under this path, e.g. /mindinsight (default: none)",
    )
    parser.add_argument(
        "--host", help="address to listen on (default: 127.0.0.1); beyond loopback every request needs the access token"
    )
    parser.add_argument(
        "--token",
        type=access_token,
        help="access token every request must present (default: none on loopback, a random "
        "one printed in the web address beyond loopback)",
    )
    parser.add_argument(
        "--database-url",
        type=_checked(database_url),
        metavar="URL",
        help="database of the tags and remarks, shared by several servers: postgresql://user:password@host/db "
        "(default: SQLite in the workspace, lineage/edits.db)",
    )
    _add_repeatable(
        parser,
        "--allowed-host",
        allowed_host,
        "a host name (or address) the server answers to besides loopback's, e.g. the one a "
        "reverse proxy sends in Host; repeatable (on loopback only these and loopback names are "
        "answered, against DNS rebinding)",
    )
    _add_repeatable(
        parser,
        "--trusted-origin",
        trusted_origin,
        "an origin (scheme://host[:port]) whose pages may change state, e.g. a reverse "
        "proxy's public address; repeatable",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mindinsight",
        description="MindInsight: visualise MindSpore training logs in the browser.",
    )
    parser.add_argument("-v", "--version", action="version", version=f"mindinsight {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="{start,stop}")

    start = commands.add_parser(
        "start",
        help="start the dashboard server in the background",
        description="Start the MindInsight server; return once it answers.",
    )
    add_start_options(start)

    stop = commands.add_parser(
        "stop",
        help="stop the server started on a port",
        description="Stop every process of the MindInsight server on a port.",
    )
    stop.add_argument("--port", type=port_number, help="port of the server to stop (default: 8080)")
    stop.add_argument("--workspace", help="directory for the stop log (default: ~/mindinsight)")

    commands.add_parser("help", help="show this help")
    return parser


SETTING_NAMES = (
    "summary_base_dir",
    "port",
    "workspace",
    "reload_interval",
    "url_path_prefix",
    "host",
    "token",
    "allowed_hosts",
    "trusted_origins",
    "storage_options",
    "database_url",
)


def settings_of(args: argparse.Namespace) -> Settings:
    """The settings of parsed options: given options over ``MINDINSIGHT_*`` variables over defaults.

    Raises ValueError for a malformed environment variable.
    """
    return Settings.from_env(**{name: getattr(args, name, None) for name in SETTING_NAMES})


def with_token_values_joined(argv: list[str]) -> list[str]:
    """``--token X`` as ``--token=X``, so a token may start with '-'.

    argparse takes a separate value that starts with '-' for an option, and one token in 64 that
    ``secrets.token_urlsafe`` makes (as our error message advises) starts with '-'.
    """
    joined: list[str] = []
    index = 0
    while index < len(argv):
        if argv[index] == "--token" and index + 1 < len(argv):
            joined.append("--token=" + argv[index + 1])
            index += 2
        else:
            joined.append(argv[index])
            index += 1
    return joined


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(with_token_values_joined(sys.argv[1:] if argv is None else argv))
    if args.command in (None, "help"):
        parser.print_help()
        return 0
    try:
        settings = settings_of(args)
    except ValueError as exc:
        parser.error(f"a MINDINSIGHT_* environment variable is not valid: {exc}")
    if args.command == "start":
        from mindinsight.scripts.start import start

        return start(settings)
    from mindinsight.scripts.stop import stop

    return stop(settings.port, workspace=settings.workspace)


if __name__ == "__main__":
    sys.exit(main())
