"""UI figures: Debian's Chromium (headless, driven by Playwright) against a real ``mindinsight start``.

``python bench/ui_bench.py [--runs 5] [--base DIR --train-id ID]``; also a section of
``python bench/run.py --ui``. Needs the built UI (``cd ui && npm run build``), /usr/bin/chromium
and the ``playwright`` Python package (no downloaded browser).

Every run opens a page in a fresh browser context (empty HTTP cache, no storage), so each load
is a first visit. Times are taken inside the page, from the start of navigation
(``performance.now()``), when a MutationObserver first sees:

* summary list visible: the first job row of ``#/summary-manage``;
* first dashboard chart drawn: on ``#/train-manage/training-dashboard``, the first scalar chart
  (``data-testid`` ending in "scalar-chart") whose ``data-rendered`` is "true" (ECharts has drawn
  it and its short entry animation is over); the first frame with chart pixels is shown beside it;
* first scalar-page chart drawn: the same on ``#/train-manage/scalar`` ("n/a" while the app has
  no such page);
* initial JS of the dashboard: every script the dashboard requested before it started loading its
  other cards and received before its first chart was drawn, gzip-compressed at level 9 as the
  build's ``.gz`` copies are (what a gzip-only client receives); the bytes Chromium actually
  received (brotli) are shown beside it;
* graph top level shown: on ``#/train-manage/graph`` for ResNet-50 (fixture h_resnet50_graph,
  1,612 operators), the first drawn graph node;
* graph scope expanded: then, from a double click on the top-level scope ``Default`` until its
  nodes are drawn inside it (the level is fetched, laid out by ELK in its worker, drawn).

The median of the runs is shown. Logs: the real MindSpore logs of ``tests/fixtures`` (one job
with 6 scalar tags of 300 steps, three runs with 3) unless ``--base`` names another directory.
"""

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DIST_INDEX = os.path.join(ROOT, "mindinsight", "ui", "dist", "index.html")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FIXTURE_JOBS = {
    "b_summary_ops": "b_summary_ops",
    "run1": "c_multi_runs/run1_momentum_lr0.01_bs32",
    "run2": "c_multi_runs/run2_momentum_lr0.005_bs16",
    "run3": "c_multi_runs/run3_adam_lr0.001_bs32",
    "resnet50": "h_resnet50_graph",
    "a_lenet": "a_lenet_collector",
}
GRAPH_JOB = "./resnet50"
GRAPH_SCOPE = "Default"
TARGETS = {"list": 0.5, "dashboard": 0.8, "scalar": 0.8, "js_kb": 250, "graph": 1.5, "expand": 0.3}
TIMEOUT_MS = 60_000

# Records, in page time, when each watched selector first matches, and the first animation
# frame in which a chart canvas holds pixels. Installed before any script of the page runs.
WATCH_SCRIPT = """
(() => {
  const marks = (window.__miMarks = {})
  const watched = {
    row: '[data-testid="summary-row"]',
    chart: '[data-testid$="scalar-chart"][data-rendered="true"]',
    notFound: '[data-testid="not-found"]',
    graph: '[data-testid="graph-node"]',
  }
  const check = () => {
    for (const [name, selector] of Object.entries(watched)) {
      if (!(name in marks) && document.querySelector(selector)) marks[name] = performance.now()
    }
  }
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true })
  const painted = () => {
    for (const canvas of document.querySelectorAll('[data-testid$="scalar-chart"] canvas')) {
      if (!canvas.width || !canvas.height) continue
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data
      for (let i = 3; i < pixels.length; i += 4 * 7) {
        if (pixels[i]) {
          marks.chartPaint = performance.now()
          return
        }
      }
    }
    if (!('chart' in marks)) requestAnimationFrame(painted)
  }
  requestAnimationFrame(painted)
})()
"""


def load_average() -> str:
    try:
        with open("/proc/loadavg") as stream:
            return " ".join(stream.read().split()[:3])
    except OSError:
        return "?"


def median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def make_fixture_base(base: str) -> tuple[str, str]:
    """Copy the fixture jobs into ``base``; the dashboard's train id."""
    for name, source in FIXTURE_JOBS.items():
        shutil.copytree(os.path.join(ROOT, "tests", "fixtures", "mindspore-2.10", source), os.path.join(base, name))
    return base, "./b_summary_ops"


def snapshot_app(into: str) -> str:
    """A copy of the package with its built UI, to serve from: a rebuild of the UI or an edit in the
    working tree during the run then changes nothing under the bench's feet. The import root."""
    shutil.copytree(
        os.path.join(ROOT, "mindinsight"),
        os.path.join(into, "mindinsight"),
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    if not os.path.isfile(os.path.join(into, "mindinsight", "ui", "dist", "index.html")):
        raise RuntimeError("the UI build vanished while it was copied (a rebuild?): run again")
    return into


class Server:
    """``mindinsight start`` on a free loopback port, ``mindinsight stop`` on exit."""

    def __init__(self, base: str, root: str = ROOT):
        from server_bench import free_port

        self.base, self.port, self.root = base, free_port(), root
        self.workspace = tempfile.mkdtemp(prefix="mi-ui-bench-")
        self.env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.url = f"http://127.0.0.1:{self.port}"

    def cli(self, *args):
        return subprocess.run(
            [sys.executable, "-m", "mindinsight.cli", *args, "--port", str(self.port), "--workspace", self.workspace],
            env=self.env,
            cwd=self.root,  # `-m` imports from the working directory first: the snapshot's package
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    def __enter__(self):
        started = self.cli("start", "--summary-base-dir", self.base, "--reload-interval", "3")
        if started.returncode != 0:
            raise RuntimeError(f"mindinsight start failed:\n{started.stdout}{started.stderr}")
        return self

    def __exit__(self, *exc):
        self.cli("stop")
        shutil.rmtree(self.workspace, ignore_errors=True)

    def api(self, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            f"{self.url}/v1/mindinsight/{path}", data=data, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())

    def wait_until_cached(self, train_id: str, timeout: float = 120):
        """The job's data is loaded: what a user who opens the dashboard a moment later meets."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            jobs = self.api("datavisual/train-jobs?offset=0&limit=999")["train_jobs"]
            if any(job["train_id"] == train_id and job["cache_status"] == "CACHED" for job in jobs):
                return
            self.api("datavisual/train-job-caches", {"train_ids": [train_id]})
            time.sleep(0.2)
        raise RuntimeError(f"{train_id} was never fully loaded")


def load(browser, url: str, wait_for: str) -> dict:
    """One cold visit: page marks (ms from navigation start) and the scripts fetched before ``wait_for``."""
    context = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    try:
        context.add_init_script(WATCH_SCRIPT)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        problems = []
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        page.on("response", lambda answer: answer.status >= 400 and problems.append(f"{answer.status} {answer.url}"))
        page.goto(url)
        try:
            page.wait_for_function(
                f"() => window.__miMarks && ('{wait_for}' in window.__miMarks || 'notFound' in window.__miMarks)"
            )
        except PlaywrightTimeout:
            raise RuntimeError(
                f"{url}: nothing matched '{wait_for}' within {TIMEOUT_MS / 1000:g} s; seen: {problems[:5]}"
            ) from None
        marks = page.evaluate("() => ({ ...window.__miMarks })")
        limit = marks.get(wait_for, float("inf"))
        # The dashboard marks when it starts loading its other cards ('mi-deferred-cards'): scripts
        # requested after that are theirs, not the first chart's, even if they arrive before it.
        scripts = page.evaluate(
            """(limit) => {
               const deferred = performance.getEntriesByName('mi-deferred-cards')[0]?.startTime ?? Infinity
               return performance.getEntriesByType('resource')
                 .filter((e) => /\\.m?js(\\?|$)/.test(e.name) && e.responseEnd <= limit && e.startTime < deferred)
                 .map((e) => ({ url: e.name, transfer: e.transferSize, encoded: e.encodedBodySize }))
             }""",
            limit if limit != float("inf") else 1e12,
        )
        return {"marks": marks, "scripts": scripts}
    finally:
        context.close()


def expand_time(browser, url: str) -> dict:
    """One cold visit of the graph page: when its top level showed, and how long expanding took (ms)."""
    context = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    try:
        context.add_init_script(WATCH_SCRIPT)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(url)
        page.wait_for_function("() => window.__miMarks && 'graph' in window.__miMarks")
        top = page.evaluate("() => window.__miMarks.graph")
        selector = f'[data-testid="graph-node"][data-name="{GRAPH_SCOPE}"]'
        page.wait_for_selector(selector)
        took = page.evaluate(
            """(selector) => new Promise((resolve) => {
                 const start = performance.now()
                 const done = () => {
                   const inside = document.querySelector(selector + '[data-expanded="true"]')
                   if (inside) { observer.disconnect(); resolve(performance.now() - start) }
                 }
                 const observer = new MutationObserver(done)
                 observer.observe(document, { subtree: true, childList: true, attributes: true })
                 document.querySelector(selector).dispatchEvent(new MouseEvent('dblclick', { bubbles: true }))
               })""",
            selector,
        )
        return {"top": top, "expand": took}
    finally:
        context.close()


def gzip_size(url: str, cache: dict) -> int:
    if url not in cache:
        request = urllib.request.Request(url, headers={"Accept-Encoding": "identity"})
        with urllib.request.urlopen(request) as answer:
            cache[url] = len(gzip.compress(answer.read(), compresslevel=9))
    return cache[url]


def timing_row(label: str, seconds: list[float], target: float, extra: str = "") -> tuple:
    value = median(seconds)
    detail = f"{value:.2f} s (median of {len(seconds)}, {min(seconds):.2f}..{max(seconds):.2f}){extra}"
    return (label, detail, f"<= {target:g} s", value <= target)


def measure(server: Server, train_id: str, runs: int) -> list[tuple]:
    quoted = urllib.parse.quote(train_id, safe="./")
    list_url = f"{server.url}/#/summary-manage"
    dashboard_url = f"{server.url}/#/train-manage/training-dashboard?id={quoted}"
    scalar_url = f"{server.url}/#/train-manage/scalar?train_id={quoted}"
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            load(browser, dashboard_url, "chart")  # warms the server's answers, not the browser
            visits = [load(browser, list_url, "row") for _ in range(runs)]
            rows.append(
                timing_row("UI: summary list visible", [v["marks"]["row"] / 1000 for v in visits], TARGETS["list"])
            )

            visits = [load(browser, dashboard_url, "chart") for _ in range(runs)]
            drawn = [v["marks"]["chart"] / 1000 for v in visits]
            painted = [v["marks"].get("chartPaint", v["marks"]["chart"]) / 1000 for v in visits]
            rows.append(
                timing_row(
                    "UI: first dashboard chart drawn",
                    drawn,
                    TARGETS["dashboard"],
                    f"; first pixels {median(painted):.2f} s",
                )
            )

            sizes: dict = {}
            scripts = visits[len(visits) // 2]["scripts"]
            gz = sum(gzip_size(script["url"], sizes) for script in scripts) / 1024
            received = sum(script["encoded"] for script in scripts) / 1024
            names = ", ".join(sorted(script["url"].rsplit("/", 1)[-1] for script in scripts))
            rows.append(
                (
                    "UI: initial JS of the dashboard (gzip -9)",
                    f"{gz:.1f} KB in {len(scripts)} files ({received:.0f} KB received as sent, brotli): {names}",
                    f"<= {TARGETS['js_kb']} KB",
                    gz <= TARGETS["js_kb"],
                )
            )

            first = load(browser, scalar_url, "chart")
            if "chart" not in first["marks"]:
                rows.append(
                    (
                        "UI: first scalar-page chart drawn",
                        "n/a (the app has no #/train-manage/scalar page)",
                        f"<= {TARGETS['scalar']:g} s",
                        None,
                    )
                )
            else:
                visits = [first] + [load(browser, scalar_url, "chart") for _ in range(runs - 1)]
                rows.append(
                    timing_row(
                        "UI: first scalar-page chart drawn",
                        [v["marks"]["chart"] / 1000 for v in visits],
                        TARGETS["scalar"],
                    )
                )
            graph_url = f"{server.url}/#/train-manage/graph?train_id={urllib.parse.quote(GRAPH_JOB, safe='./')}"
            expand_time(browser, graph_url)  # loads the graph on the server
            visits = [expand_time(browser, graph_url) for _ in range(runs)]
            rows.append(
                timing_row("UI: graph top level shown (ResNet-50)", [v["top"] / 1000 for v in visits], TARGETS["graph"])
            )
            rows.append(
                timing_row(
                    f"UI: graph scope '{GRAPH_SCOPE}' expanded (ResNet-50)",
                    [v["expand"] / 1000 for v in visits],
                    TARGETS["expand"],
                )
            )
        finally:
            browser.close()
    return rows


def side_by_side(server: Server, base: str, runs: int, original: str | None) -> list[dict]:
    """Every page's first drawing, ours and (with ``original``) MindInsight 2.3.1's, interleaved."""
    import ui_side_by_side
    from server_bench import free_port

    jobs = sorted({page.job for page in ui_side_by_side.PAGES if page.job})
    for job in jobs:
        server.wait_until_cached(job)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            if original is None:
                return ui_side_by_side.measure(browser, server.url, None, runs)
            with ui_side_by_side.OriginalServer(original, base, free_port()) as old:
                old.wait_until_cached(jobs)
                return ui_side_by_side.measure(browser, server.url, old.url, runs)
        finally:
            browser.close()


def run(
    runs: int = 5, base: str | None = None, train_id: str | None = None, original: str | None = None
) -> list[tuple]:
    """Start a server over ``base`` (default: copies of the test fixtures) and measure; table rows.
    With ``original`` (MindInsight 2.3.1's ``mindinsight`` script in its own venv) every page is
    also measured beside the original's, over the same logs (ui_side_by_side.py)."""
    import ui_side_by_side

    rows, compared = measure_all(runs, base, train_id, original)
    return rows + [ui_side_by_side.as_table_row(row) for row in compared]


def measure_all(runs: int, base: str | None, train_id: str | None, original: str | None):
    """Our own figures (table rows) and the page-by-page comparison (ui_side_by_side rows)."""
    if not os.path.isfile(DIST_INDEX):
        raise RuntimeError("the UI is not built: run `cd ui && npm ci && npm run build` first")
    if not os.path.isfile(CHROMIUM):
        raise RuntimeError(f"{CHROMIUM} is missing: apt-get install chromium")
    if original is not None and not os.access(original, os.X_OK):
        raise RuntimeError(f"--original {original}: no such executable")
    scratch = tempfile.mkdtemp(prefix="mi-ui-bench-logs-")
    compared: list[dict] = []
    fixtures = base is None
    try:
        if fixtures:
            base, train_id = make_fixture_base(os.path.join(scratch, "base"))
        with Server(base, snapshot_app(os.path.join(scratch, "app"))) as server:
            server.wait_until_cached(train_id)
            # Page loads are CPU-bound: on a busy machine every time figure grows with the load.
            print(f"  UI figures: load average before {load_average()}", flush=True)
            rows = measure(server, train_id, runs)
            for label, detail, _, _ in rows:
                print(f"  {label}: {detail}", flush=True)
            if not fixtures:
                print("  Page by page figures: only over the fixture logs (without --base)", flush=True)
            elif original is None:
                print(
                    "  Side by side with MindInsight 2.3.1: not measured (give --original PATH to its"
                    " `mindinsight` script, e.g. /work/orig-venv/bin/mindinsight); our pages alone:",
                    flush=True,
                )
            else:
                print(f"  Side by side with MindInsight 2.3.1 ({original}), interleaved:", flush=True)
            if fixtures:
                compared = side_by_side(server, base, runs, original)
            print(f"  UI figures: load average after {load_average()}", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return rows, compared


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="cold visits per figure (the median is shown)")
    parser.add_argument("--base", help="summary base dir to serve (default: copies of tests/fixtures logs)")
    parser.add_argument("--train-id", default="./b_summary_ops", help="job whose dashboard is opened (with --base)")
    parser.add_argument(
        "--original",
        help="MindInsight 2.3.1's `mindinsight` script (its own venv): measure every page beside it",
    )
    args = parser.parse_args(argv)
    rows, compared = measure_all(args.runs, args.base, args.train_id if args.base else None, args.original)
    print()
    print("| figure | measured | target | met |")
    print("|---|---|---|---|")
    for label, detail, target, met in rows:
        print(f"| {label} | {detail} | {target} | {'n/a' if met is None else ('yes' if met else 'NO')} |")
    if compared:
        import ui_side_by_side

        print()
        print("\n".join(ui_side_by_side.markdown(compared)))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    sys.exit(main())
