"""The README's several-servers deployment, for real: ``deploy/nginx-replicas.conf`` in Debian's
nginx in front of two servers on one base dir, started with the README's options."""

import contextlib
import re
import shlex
import time
from pathlib import Path

from tests.helpers.nginx import http_conf, running_nginx_conf
from tests.helpers.server import free_port, running_server

ROOT = Path(__file__).resolve().parents[2]
DEPLOY_CONF = ROOT / "deploy" / "nginx-replicas.conf"
SECTION = "### Behind one address"
# Options of the README's start lines that the tests keep; the rest (dirs, ports, database) they choose.
KEPT_OPTIONS = ("--allowed-host", "--trusted-origin", "--url-path-prefix")


def readme_section() -> str:
    text = (ROOT / "README.md").read_text()
    section = text[text.index(SECTION) :]
    return section[: section.index("\n## ", len(SECTION))]


def readme_conf() -> str:
    """The nginx config the README shows in its section."""
    return re.search(r"```nginx\n(.*?)```", readme_section(), re.S).group(1)


def readme_start_lines() -> list[list[str]]:
    """The words of each ``mindinsight start`` line of the section's bash block."""
    block = re.search(r"```bash\n(.*?)```", readme_section(), re.S).group(1)
    return [shlex.split(line) for line in block.splitlines() if line.startswith("mindinsight start ")]


def option_values(words: list[str], name: str) -> list[str]:
    return [words[index + 1] for index, word in enumerate(words) if word == name]


def kept_options(words: list[str]) -> tuple[str, ...]:
    """The access and path options of one start line (see ``KEPT_OPTIONS``)."""
    options = []
    for name in KEPT_OPTIONS:
        for value in option_values(words, name):
            options += [name, value]
    return tuple(options)


def upstream_ports(conf: str) -> list[int]:
    """The ports of the ``server 127.0.0.1:<port>`` lines of the config's upstream."""
    return [int(port) for port in re.findall(r"^\s*server 127\.0\.0\.1:(\d+)\b", conf, re.M)]


def public_host(conf: str) -> str:
    return re.search(r"server_name\s+([^\s;]+)\s*;", conf).group(1)


def render(conf: str, listen_port: int, upstreams: dict[int, int | str]) -> str:
    """The deploy config with only its addresses changed: ``listen 80`` -> loopback ``listen_port``,
    each upstream ``127.0.0.1:<port>`` -> ``127.0.0.1:<upstreams[port]>`` (or ``upstreams[port]``
    itself when it is a ``host:port``), as 80 and 808x are taken or privileged on this machine."""
    assert re.search(r"^\s*listen 80;$", conf, re.M), conf
    conf = re.sub(r"^(\s*)listen 80;$", rf"\1listen 127.0.0.1:{listen_port};", conf, flags=re.M)
    for old, new in upstreams.items():
        address = new if isinstance(new, str) else f"127.0.0.1:{new}"
        conf, count = re.subn(rf"\b127\.0\.0\.1:{old}\b", address, conf)
        assert count == 1, (old, conf)
    return conf


@contextlib.contextmanager
def running_nginx_before(upstreams: dict[int, int | str], prefix: Path, workers: int = 1, access_log: bool = True):
    """nginx running the deploy config with its upstreams replaced as ``render`` does; yields its URL."""
    listen_port = free_port()
    body = render(DEPLOY_CONF.read_text(), listen_port, upstreams)
    conf = http_conf(body, prefix, workers=workers, connections=1024, access_log=access_log)
    with running_nginx_conf(conf, listen_port, prefix) as url:
        yield url


@contextlib.contextmanager
def running_replica(base, workspace, start_line: list[str], options: tuple[str, ...] = (), **kwargs):
    """One server as a README start line starts it (its kept options), plus ``options``."""
    with running_server(base, workspace, options=kept_options(start_line) + tuple(options), **kwargs) as server:
        yield server


def answered_by(prefix: Path, method: str, uri: str) -> list[int]:
    """The upstream ports of the requests ``method uri`` in nginx's access log, oldest first."""
    return [int(address.rsplit(":", 1)[1]) if ":" in address else 0 for address in answering(prefix, method, uri)]


def answering(prefix: Path, method: str, uri: str) -> list[str]:
    """The upstream ``host:port`` of each request ``method uri`` in nginx's access log, oldest
    first (of several tried upstreams, the last: the one that answered; ``-`` for none)."""
    log = prefix / "access.log"
    # nginx writes a request's line once it has sent the answer: a client may read the log first.
    deadline = time.monotonic() + 2
    while True:
        addresses = []
        for line in log.read_text().splitlines() if log.exists() else ():
            logged_method, logged_uri, _status, upstreams = line.split(" ", 3)
            if (logged_method, logged_uri) == (method, uri):
                addresses.append(upstreams.replace(" : ", ", ").split(", ")[-1])
        if addresses or time.monotonic() > deadline:
            return addresses
        time.sleep(0.05)
