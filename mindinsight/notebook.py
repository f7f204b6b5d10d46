"""``%mindinsight`` in Jupyter: start (or reuse) a server and show the dashboard in the notebook.

``%load_ext mindinsight`` registers the magic (``mindinsight.load_ipython_extension``). Its
options are those of ``mindinsight start``, which it runs: the server is detached and outlives
the kernel, as from a terminal; ``mindinsight stop --port N`` ends it.
Without ``--port``, a server already serving the same summary base dir is shown again. Every
problem is printed as text: a notebook user gets a sentence, never a traceback.

IPython is imported only to show the dashboard, so ``running_servers()`` works in any Python.
"""

import argparse
import dataclasses
import html
import os
import shlex
import string
import subprocess
import sys
import uuid

import psutil

from mindinsight.cli import add_start_options, settings_of
from mindinsight.conf import limits
from mindinsight.conf.settings import ENV_PREFIX, Settings
from mindinsight.scripts.processes import APP_TARGET
from mindinsight.scripts.start import EXIT_OK, EXIT_REUSED, web_address

FRAME_HEIGHT_PX = 800
FRAME = string.Template("""\
<div id="$box"><p><a href="$src" target="_blank" rel="noopener">Open MindInsight in a new tab</a></p></div>
<script>
(() => {
  const box = document.getElementById("$box");
  const link = box.querySelector("a");
  const url = new URL(link.getAttribute("href"));
  if (window.location.hostname === "localhost" && url.hostname === "127.0.0.1") {
    url.hostname = "localhost";
    link.setAttribute("href", url.href);
  }
  const frame = document.createElement("iframe");
  frame.src = url.href;
  frame.width = "100%";
  frame.height = "$height";
  frame.allowFullscreen = true;
  frame.style.border = "0";
  box.prepend(frame);
})();
</script>""")
# ``start`` itself gives up on the server after START_TIMEOUT_SECONDS and says why; past this the
# command is stuck (a full disk, a hung file system) and the kernel stops waiting.
START_COMMAND_TIMEOUT_SECONDS = limits.START_TIMEOUT_SECONDS + 30
# A server bound to every address is reached on loopback from the notebook's browser.
UNSPECIFIED_HOSTS = {"0.0.0.0": "127.0.0.1", "::": "::1"}


@dataclasses.dataclass(frozen=True)
class RunningServer:
    """A MindInsight server running on this machine: its gunicorn master and its settings."""

    pid: int
    settings: Settings

    @property
    def address(self) -> str:
        """The web address to open (with ``?token=`` when the server asks for one)."""
        host = UNSPECIFIED_HOSTS.get(self.settings.host, self.settings.host)
        return web_address(dataclasses.replace(self.settings, host=host))


def running_servers() -> list[RunningServer]:
    """The MindInsight servers of this user running on this machine, by port.

    Read from the processes themselves (the settings are the environment ``start`` gave
    them), so servers started from a terminal are found as well as the notebook's.
    """
    found = []
    for proc in psutil.process_iter():
        if not _is_server_process(proc):
            continue
        try:
            parent = proc.parent()
            if parent is not None and _is_server_process(parent):
                continue  # a worker: its master stands for the server
            settings = Settings.from_env(environ=proc.environ())
        except (psutil.Error, ValueError):
            continue  # ended meanwhile, another user's, or an environment we cannot read
        found.append(RunningServer(proc.pid, settings))
    return sorted(found, key=lambda server: server.settings.port)


def _is_server_process(proc: psutil.Process) -> bool:
    try:
        return APP_TARGET in " ".join(proc.cmdline())
    except psutil.Error:
        return False


def build_parser() -> argparse.ArgumentParser:
    """``mindinsight start``'s options, and ``--list``."""
    parser = argparse.ArgumentParser(
        prog="%mindinsight",
        description="Start a MindInsight server (or reuse the one serving the summary base dir) and show it here.",
    )
    add_start_options(parser)
    parser.add_argument("--list", action="store_true", help="list the running MindInsight servers")
    return parser


def mindinsight_magic(line: str) -> None:
    """The ``%mindinsight`` line magic: ``%mindinsight --summary-base-dir DIR [--port N ...]``."""
    try:
        arguments = shlex.split(line)
        args = build_parser().parse_args(arguments)
    except ValueError as exc:  # shlex: an unclosed quote
        _problem(f"cannot read the options: {exc}")
        return
    except SystemExit:  # argparse has printed the help, or the usage and what is wrong
        return
    if args.list:
        print(_listing(running_servers()))
        return
    try:
        settings = settings_of(args)
    except ValueError as exc:
        _problem(f"a MINDINSIGHT_* environment variable is not valid: {exc}")
        return
    if not os.path.isdir(settings.summary_base_dir):
        # The command only warns (a training may create it later); here a mistyped path is likelier.
        _problem(
            f"the summary base dir {settings.summary_base_dir} is not a directory "
            "(it does not exist or is a file); create it first to watch a training that has not begun."
        )
        return
    server = None if _port_chosen(args) else _serving(settings.summary_base_dir)
    if server is not None:
        print(f"Reusing MindInsight on port {server.settings.port} for {settings.summary_base_dir}.")
    else:
        server = _start(arguments, settings)
    if server is not None:
        _show(server)


def _port_chosen(args: argparse.Namespace) -> bool:
    return args.port is not None or ENV_PREFIX + "PORT" in os.environ


def _serving(summary_base_dir: str) -> RunningServer | None:
    return next((s for s in running_servers() if s.settings.summary_base_dir == summary_base_dir), None)


def _start(arguments: list[str], settings: Settings) -> RunningServer | None:
    """Run ``mindinsight start <arguments>`` and pass on what it prints; the server, or None.

    In a child process, as from a terminal: the server then outlives it and is nobody's child
    in the kernel (which would never reap it: ``mindinsight stop`` would wait on a zombie).
    """
    command = [sys.executable, "-m", "mindinsight", "start", *arguments]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=START_COMMAND_TIMEOUT_SECONDS
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        _problem(f"the server could not be started: {exc}")
        return None
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    if done.returncode not in (EXIT_OK, EXIT_REUSED):
        return None  # start has said why
    server = next((s for s in running_servers() if s.settings.port == settings.port), None)
    if server is None:
        _problem(f"the server on port {settings.port} answered, then stopped; see its logs in {settings.workspace}.")
    return server


def frame_html(address: str) -> str:
    """The dashboard at ``address`` in an iframe, with a link to open it in a tab.

    A notebook page on ``localhost`` gets the frame (and link) on ``localhost`` too, the same
    site: to a page on another site the dashboard would be a third-party frame, whose storage
    browsers may refuse. The output's script makes the frame once it knows the page's host, so
    the dashboard loads once: a frame sent elsewhere mid-load costs a second load, and chromium
    may swap its process while the first is committing. Where output scripts do not run, the
    link is shown alone.
    """
    src = html.escape(address, quote=True)
    return FRAME.substitute(box=f"mindinsight-{uuid.uuid4().hex}", src=src, height=FRAME_HEIGHT_PX)


def _show(server: RunningServer) -> None:
    from IPython.display import display

    display({"text/html": frame_html(server.address), "text/plain": f"MindInsight at {server.address}"}, raw=True)


def _listing(servers: list[RunningServer]) -> str:
    if not servers:
        return "No MindInsight server is running."
    rows = [("port", "pid", "summary base dir", "address")]
    rows += [(str(s.settings.port), str(s.pid), s.settings.summary_base_dir, s.address) for s in servers]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    return "\n".join("  ".join([*(cell.ljust(width) for cell, width in zip(row, widths)), row[3]]) for row in rows)


def _problem(message: str) -> None:
    print(f"MindInsight: {message}", file=sys.stderr)


def load_ipython_extension(ipython) -> None:
    """Register ``%mindinsight`` (``%load_ext mindinsight`` calls this through the package)."""
    ipython.register_magic_function(mindinsight_magic, magic_kind="line", magic_name="mindinsight")
