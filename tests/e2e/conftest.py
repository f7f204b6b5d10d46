"""Browser tests: Debian's Chromium driven by Playwright against the real server (CLI + gunicorn).

The UI must have been built into mindinsight/ui/dist (`cd ui && npm run build`); the tests fail
with that instruction when it is missing. No browser is ever downloaded: /usr/bin/chromium only.
"""

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import sync_playwright

from tests.helpers.fixtures import MULTI_RUNS, copy_job
from tests.helpers.server import before_each_stop, running_server

ROOT = Path(__file__).resolve().parents[2]
DIST_INDEX = ROOT / "mindinsight" / "ui" / "dist" / "index.html"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 20_000


def make_base(base: Path, with_summary_ops: bool = True, runs: int = 3) -> Path:
    """Summary base dir: ``b_summary_ops`` and ``c_multi_runs/run*`` copied as ``run1``..``runN``."""
    base.mkdir(parents=True, exist_ok=True)
    if with_summary_ops:
        copy_job("b_summary_ops", base / "b_summary_ops")
    for index, run in enumerate(MULTI_RUNS[:runs], start=1):
        copy_job(f"c_multi_runs/{run}", base / f"run{index}")
    return base


@pytest.fixture(scope="session")
def built_ui():
    if not DIST_INDEX.is_file():
        pytest.fail(f"the UI is not built ({DIST_INDEX} is missing): run `cd ui && npm ci && npm run build` first")
    assets = list((DIST_INDEX.parent / "static").glob("*.js"))
    if not assets:
        pytest.fail("mindinsight/ui/dist/static holds no JavaScript: rebuild the UI with `cd ui && npm run build`")
    return DIST_INDEX


# Per module, not per session: while Playwright's sync API runs, its event loop is the thread's
# running loop, and the unit tests that call asyncio.run() in the same pytest-xdist worker
# afterwards would fail.
@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    """One real server for the module over b_summary_ops and run1..run3."""
    base = make_base(tmp_path_factory.mktemp("e2e") / "summary_base")
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=3) as running:
        yield running


class PageProblems:
    """Uncaught exceptions, console errors and failed HTTP responses of the pages of one test.

    Tests that provoke an error on purpose declare it with ``allow_http(status, url_part)``.
    """

    def __init__(self):
        self.problems = []
        self.allowed = []

    def allow_http(self, status: int, url_part: str):
        self.allowed.append((status, url_part))

    def watch(self, page):
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        page.on("console", self._console)
        page.on("response", self._response)

    def _console(self, message):
        # Failed loads are reported (with their URL) by _response.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.problems.append(f"console error: {message.text}")

    def _response(self, response):
        if response.status >= 400 and not any(
            response.status == status and part in response.url for status, part in self.allowed
        ):
            self.problems.append(f"HTTP {response.status} {response.url}")


@pytest.fixture
def new_page(browser):
    """Factory of pages, each in a fresh browser context (own localStorage), closed after the test.

    ``new_page.problems`` collects page errors; the test fails if any was not allowed.
    """
    contexts = []
    problems = PageProblems()

    def make(locale: str = "en-US"):
        context = browser.new_context(locale=locale, viewport={"width": 1440, "height": 900})
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        problems.watch(page)
        return page

    def leave(server):
        # A server a test started in its body stops before this fixture's teardown: its pages
        # close first, or their next poll would fail and report a problem of the test's making.
        # (Closed, not sent to about:blank: the tests' init scripts would run there, without storage.)
        for context in contexts:
            for open_page in context.pages:
                if urlsplit(open_page.url).port == server.port:
                    open_page.close()

    make.problems = problems
    with before_each_stop(leave):
        yield make
    for context in contexts:
        # A route handler still holding or answering a script (tests/helpers/held_scripts.py) would
        # fail on the closed page and raise in the next test's first browser call.
        for open_page in context.pages:
            open_page.unroute_all(behavior="ignoreErrors")
        context.close()
    assert not problems.problems, "\n".join(problems.problems)


@pytest.fixture
def page(new_page):
    """An English page in a fresh context; its problems are ``page.problems``."""
    page = new_page("en-US")
    page.problems = new_page.problems
    return page
