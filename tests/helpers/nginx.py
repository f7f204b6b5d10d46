"""The README's reverse-proxy setup, for real: Debian's nginx (package nginx-light) running the
README's server block in front of a test server, every file of its own in a private folder."""

import contextlib
import os
import re
import shlex
import socket
import subprocess
import time
from pathlib import Path

from tests.helpers.server import free_port

ROOT = Path(__file__).resolve().parents[2]
NGINX = Path("/usr/sbin/nginx")
SECTION = "## Behind a reverse proxy"
README_PORT = "8080"  # the MindInsight port the README's block names
START_TIMEOUT = 20


def readme_setup() -> tuple[str, tuple[str, ...]]:
    """The nginx server block of the README's section, and the access options (``--trusted-origin``,
    ``--allowed-host``) of its ``mindinsight start`` line: the tests choose dirs and ports."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index(SECTION) :]
    section = section[: section.index("\n## ", len(SECTION))]
    block = re.search(r"```nginx\n(.*?)```", section, re.S).group(1)
    words = shlex.split(re.search(r"```bash\n(mindinsight start [^\n]*)\n```", section).group(1))
    options = []
    for index, word in enumerate(words):
        if word in ("--trusted-origin", "--allowed-host"):
            options += [word, words[index + 1]]
    return block, tuple(options)


def public_origin(block: str) -> str:
    """The address a browser opens: ``http://`` and the block's ``server_name`` (it listens on 80)."""
    return "http://" + re.search(r"server_name\s+([^\s;]+)\s*;", block).group(1)


def nginx_conf(block: str, prefix: Path, listen_port: int, upstream_port: int) -> str:
    """A whole nginx.conf around the README's block, every path inside ``prefix``; only the
    ports change (the block's ``listen 80`` and MindInsight's 8080 are taken on this machine)."""
    assert re.search(r"^\s*listen 80;$", block, re.M) and f"127.0.0.1:{README_PORT}" in block, block
    block = re.sub(r"^(\s*)listen 80;$", rf"\1listen 127.0.0.1:{listen_port};", block, flags=re.M)
    block = block.replace(f"127.0.0.1:{README_PORT}", f"127.0.0.1:{upstream_port}")
    return http_conf(block, prefix)


def http_conf(body: str, prefix: Path, workers: int = 1, connections: int = 64, access_log: bool = True) -> str:
    """A whole nginx.conf whose http block holds ``body``, every path inside ``prefix``. The
    access log names the upstream that answered each request (``$upstream_addr``)."""
    log = f"{prefix / 'access.log'} upstream" if access_log else "off"
    temp = {name: prefix / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    # As root nginx would run its worker as nobody, who may not enter the test's private tmp dir.
    user = "user root;\n" if os.geteuid() == 0 else ""
    return f"""{user}daemon off;
worker_processes {workers};
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} info;
events {{ worker_connections {connections}; }}
http {{
    log_format upstream '$request_method $request_uri $status $upstream_addr';
    access_log {log};
    client_body_temp_path {temp["body"]};
    proxy_temp_path {temp["proxy"]};
    fastcgi_temp_path {temp["fastcgi"]};
    uwsgi_temp_path {temp["uwsgi"]};
    scgi_temp_path {temp["scgi"]};
{body}
}}
"""


def _wait_listening(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx exited with {process.returncode}:\n{log.read_text(errors='replace')}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nginx did not listen on {port} within {START_TIMEOUT} s")


@contextlib.contextmanager
def running_nginx(block: str, upstream_port: int, prefix: Path):
    """nginx serving ``block`` on a free loopback port, proxying to ``upstream_port``; yields
    its ``http://127.0.0.1:<port>`` address. Its conf, pid and logs live in ``prefix``."""
    listen_port = free_port()
    with running_nginx_conf(nginx_conf(block, prefix, listen_port, upstream_port), listen_port, prefix) as url:
        yield url


@contextlib.contextmanager
def running_nginx_conf(conf: str, listen_port: int, prefix: Path):
    """nginx running the whole ``conf`` (which listens on ``listen_port``), written to ``prefix``
    with its pid and logs; yields ``http://127.0.0.1:<listen_port>``; nginx ends with the block."""
    if not NGINX.is_file():
        raise RuntimeError(f"{NGINX} is missing: install Debian's nginx-light (apt-get install -y nginx-light)")
    path, log = prefix / "nginx.conf", prefix / "error.log"
    path.write_text(conf)
    command = [str(NGINX), "-p", str(prefix), "-c", str(path), "-e", str(log)]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        _wait_listening(listen_port, process, log)
        yield f"http://127.0.0.1:{listen_port}"
    finally:
        process.terminate()
        process.wait(timeout=30)
