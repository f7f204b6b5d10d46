"""Every page's first drawing, ours beside MindInsight 2.3.1's, over the same logs in one run.

Part of ``python bench/ui_bench.py --original /path/to/venv/bin/mindinsight`` (without the option
only our figures are taken). Both servers read the same summary base dir; for each page the two
apps are visited alternately (ours, the original's, ours, ...), each visit in a fresh browser
context (empty HTTP cache, no storage), so a change of the machine's load touches both alike.

"First drawing" is what a user first sees of the page's data, detected the same way in both DOMs
(the original is Vue 2 + Element UI + ECharts + d3-graphviz + SlickGrid): a table row, a chart
canvas holding pixels, a loaded image, a drawn graph node. The times are read inside the page
(``performance.now()`` from the start of navigation), on every animation frame and on every DOM
change, by a script installed before any script of the page runs.
"""

import dataclasses
import gzip
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request

from playwright.sync_api import TimeoutError as PlaywrightTimeout


@dataclasses.dataclass(frozen=True)
class Page:
    key: str
    label: str
    route: str  # hash route; {job} is the page's train id, quoted
    job: str | None
    ours: tuple[str, str]  # (kind, selector): kind is "element", "canvas" (has pixels), "image" (loaded)
    original: tuple[str, str]
    target: float  # ours / original at most


DASHBOARD_JOB = "./b_summary_ops"
PAGES = [
    Page(
        "list",
        "summary list: first job row",
        "#/summary-manage",
        None,
        ("element", '[data-testid="summary-row"]'),
        ("element", "tr.el-table__row"),
        0.5,
    ),
    Page(
        "dashboard",
        "dashboard: first scalar chart",
        "#/train-manage/training-dashboard?id={job}",
        DASHBOARD_JOB,
        ("canvas", '[data-testid="dashboard-scalar-chart"]'),
        ("canvas", "#module-chart"),
        0.4,
    ),
    Page(
        "scalar",
        "scalar page: first chart",
        "#/train-manage/scalar?train_id={job}",
        DASHBOARD_JOB,
        ("canvas", '[data-testid="scalar-chart"]'),
        ("canvas", ".char-item-content"),
        0.5,
    ),
    Page(
        "image",
        "image page: first image",
        "#/train-manage/image?train_id={job}",
        DASHBOARD_JOB,
        ("image", 'img[data-testid="image"]'),
        ("image", "img.sample-img"),
        0.6,
    ),
    Page(
        "histogram",
        "histogram page: first chart",
        "#/train-manage/histogram?train_id={job}",
        DASHBOARD_JOB,
        ("canvas", '[data-testid="histogram-chart"]'),
        ("canvas", ".char-item-content"),
        0.6,
    ),
    Page(
        "tensor",
        "tensor page: first table cell",
        "#/train-manage/tensor?train_id={job}",
        DASHBOARD_JOB,
        ("element", '[data-testid="tensor-cell"]'),
        ("element", ".slick-cell"),
        0.6,
    ),
    Page(
        "graph",
        "graph page: first node (ResNet-50)",
        "#/train-manage/graph?train_id={job}",
        "./resnet50",
        ("element", '[data-testid="graph-node"]'),
        ("element", "#graph g.node"),
        0.6,
    ),
    Page(
        "data-map",
        "data map: first drawing",
        "#/train-manage/data-map?train_id={job}",
        "./a_lenet",
        ("element", '[data-testid="pipeline-node"]'),
        ("element", ".data-map-container g.node"),
        0.6,
    ),
    Page(
        "model-lineage",
        "model lineage: parallel chart",
        "#/model-traceback",
        None,
        ("canvas", '[data-testid="parallel-chart"]'),
        ("canvas", "#echart"),
        0.6,
    ),
    Page(
        "dataset-lineage",
        "dataset lineage: parallel chart",
        "#/data-traceback",
        None,
        ("canvas", '[data-testid="parallel-chart"]'),
        ("canvas", "#data-echart"),
        0.6,
    ),
    Page(
        "compare",
        "scalars comparison: first chart",
        "#/compare-analysis/scalar",
        None,
        ("canvas", '[data-testid="scalar-chart"]'),
        ("canvas", ".char-item-content"),
        0.6,
    ),
]
DASHBOARD_JS_KB = 400
TIMEOUT_MS = 60_000
# After the first chart the dashboard goes on loading its other cards: the JS figure counts every
# script it fetched until the network has been quiet this long.
QUIET_MS = 1500

WATCH_SCRIPT = """
(() => {
  const [kind, selector] = %s
  const marks = (window.__miFirst = {})
  const drawn = () => {
    if (kind === 'element') return document.querySelector(selector) !== null
    if (kind === 'image') {
      for (const img of document.querySelectorAll(selector)) if (img.complete && img.naturalWidth) return true
      return false
    }
    for (const canvas of document.querySelectorAll(selector + ' canvas')) {
      if (!canvas.width || !canvas.height) continue
      const context = canvas.getContext('2d')
      if (!context) continue
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data
      for (let i = 3; i < pixels.length; i += 4 * 7) if (pixels[i]) return true
    }
    return false
  }
  const check = () => {
    if (!('first' in marks) && drawn()) marks.first = performance.now()
  }
  if (kind === 'element') new MutationObserver(check).observe(document, { subtree: true, childList: true })
  const frame = () => {
    check()
    if (!('first' in marks)) requestAnimationFrame(frame)
  }
  requestAnimationFrame(frame)
})()
"""


def median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


class OriginalServer:
    """MindInsight 2.3.1 started by its own ``mindinsight`` script (from its venv) on a free port.

    It runs ``gunicorn`` found on PATH, so the venv's bin folder goes first; it is started from an
    empty directory (it imports from the working directory) and writes only to its workspace."""

    def __init__(self, executable: str, base: str, port: int):
        self.executable, self.base, self.port = executable, base, port
        self.scratch = tempfile.mkdtemp(prefix="mi-original-")
        self.cwd = os.path.join(self.scratch, "cwd")
        os.mkdir(self.cwd)
        bin_dir = os.path.dirname(os.path.abspath(executable))
        self.env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
        self.env.pop("PYTHONPATH", None)
        self.url = f"http://127.0.0.1:{port}"

    def cli(self, *args):
        return subprocess.run(
            [self.executable, *args, "--port", str(self.port)],
            cwd=self.cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    def __enter__(self):
        workspace = os.path.join(self.scratch, "workspace")
        started = self.cli("start", "--summary-base-dir", self.base, "--workspace", workspace)
        if started.returncode != 0 or "success" not in started.stdout:
            log = os.path.join(workspace, "log", "gunicorn", f"error.{self.port}.log")
            tail = open(log).read()[-2000:] if os.path.isfile(log) else ""
            self.__exit__()
            raise RuntimeError(f"the original MindInsight did not start:\n{started.stdout}{started.stderr}{tail}")
        return self

    def __exit__(self, *exc):
        self.cli("stop")
        shutil.rmtree(self.scratch, ignore_errors=True)

    def wait_until_cached(self, train_ids, timeout: float = 300):
        deadline = time.monotonic() + timeout
        wanted = set(train_ids)
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"{self.url}/v1/mindinsight/datavisual/train-jobs?offset=0&limit=999") as a:
                jobs = json.loads(a.read())["train_jobs"]
            if wanted <= {job["train_id"] for job in jobs if job["cache_status"] == "CACHED"}:
                return
            body = json.dumps({"train_ids": sorted(wanted)}).encode()
            request = urllib.request.Request(
                f"{self.url}/v1/mindinsight/datavisual/train-job-caches",
                data=body,
                headers={"Content-Type": "application/json"},
            )
            urllib.request.urlopen(request).close()
            time.sleep(0.5)
        raise RuntimeError(f"the original never loaded {sorted(wanted)}")


def page_url(server_url: str, page: Page) -> str:
    job = urllib.parse.quote(page.job, safe="./") if page.job else ""
    return f"{server_url}/{page.route.format(job=job)}"


def visit(browser, url: str, watch: tuple[str, str], keep_scripts: bool = False) -> dict:
    """One cold visit: ms from navigation start to the first drawing (and, if asked, every script
    the page fetched until the network went quiet after it)."""
    context = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    try:
        context.add_init_script(WATCH_SCRIPT % json.dumps(list(watch)))
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        problems = []
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        page.on("response", lambda answer: answer.status >= 400 and problems.append(f"{answer.status} {answer.url}"))
        page.goto(url)
        try:
            page.wait_for_function("() => window.__miFirst && 'first' in window.__miFirst")
        except PlaywrightTimeout:
            raise RuntimeError(f"{url}: no {watch} within {TIMEOUT_MS / 1000:g} s; seen: {problems[:5]}") from None
        result = {"first": page.evaluate("() => window.__miFirst.first")}
        if keep_scripts:
            quiet_since = time.monotonic()
            seen = -1
            while time.monotonic() - quiet_since < QUIET_MS / 1000:
                count = page.evaluate("() => performance.getEntriesByType('resource').length")
                if count != seen:
                    seen, quiet_since = count, time.monotonic()
                page.wait_for_timeout(100)
            result["scripts"] = page.evaluate(
                """() => performance.getEntriesByType('resource')
                     .filter((e) => /\\.m?js(\\?|$)/.test(e.name)).map((e) => e.name)"""
            )
        return result
    finally:
        context.close()


def gzip_kb(urls: list[str]) -> float:
    """The scripts' bytes compressed with gzip -9, in KB: the same measure for both apps."""
    total = 0
    for url in urls:
        request = urllib.request.Request(url, headers={"Accept-Encoding": "identity"})
        with urllib.request.urlopen(request) as answer:
            total += len(gzip.compress(answer.read(), compresslevel=9))
    return total / 1024


def page_times(browser, page: Page, apps: list, runs: int) -> tuple[dict, dict]:
    """Seconds to the first drawing per app (interleaved visits) and, on the dashboard, the scripts."""
    times: dict[str, list[float]] = {name: [] for name, _, _ in apps}
    scripts: dict[str, list[str]] = {}
    for _, base, side in apps:  # warms each server's answers (and the original's graph layout)
        visit(browser, page_url(base, page), (page.ours, page.original)[side])
    for run in range(runs):
        for name, base, side in apps if run % 2 == 0 else apps[::-1]:
            keep = page.key == "dashboard" and run == 0
            seen = visit(browser, page_url(base, page), (page.ours, page.original)[side], keep)
            times[name].append(seen["first"] / 1000)
            if keep:
                scripts[name] = seen["scripts"]
    return times, scripts


def measure(browser, ours_url: str, original_url: str | None, runs: int) -> list[dict]:
    """One row per page (and one for the dashboard's JS): our median, the original's, the ratio."""
    rows = []
    apps = [("ours", ours_url, 0)] + ([("original", original_url, 1)] if original_url else [])
    for page in PAGES:
        try:
            times, scripts = page_times(browser, page, apps, runs)
        except RuntimeError as error:  # one page failing to draw does not void the others' figures
            rows.append({"label": page.label, "failed": str(error)[:300], "target": page.target})
            print(f"  {page.label}: FAILED: {rows[-1]['failed']}", flush=True)
            continue
        row = {"label": page.label, "ours": times["ours"], "original": times.get("original"), "target": page.target}
        rows.append(row)
        print(f"  {format_row(row)}", flush=True)
        if scripts:
            js = {name: gzip_kb(urls) for name, urls in scripts.items()}
            rows.append(
                {
                    "label": "dashboard: all JS loaded (gzip -9)",
                    "ours_kb": js["ours"],
                    "original_kb": js.get("original"),
                    "files": {name: len(urls) for name, urls in scripts.items()},
                    "target_kb": DASHBOARD_JS_KB,
                }
            )
            print(f"  {format_row(rows[-1])}", flush=True)
    return rows


def row_met(row: dict) -> bool | None:
    if "failed" in row:
        return False
    if "ours_kb" in row:
        return row["ours_kb"] <= row["target_kb"]
    if not row["original"]:
        return None
    return median(row["ours"]) / median(row["original"]) <= row["target"]


def format_row(row: dict) -> str:
    if "failed" in row:
        return f"{row['label']}: FAILED: {row['failed']}"
    if "ours_kb" in row:
        original = f"{row['original_kb']:.0f} KB in {row['files']['original']} files" if row["original_kb"] else "-"
        return (
            f"{row['label']}: ours {row['ours_kb']:.0f} KB in {row['files']['ours']} files, original {original};"
            f" target <= {row['target_kb']} KB: {'met' if row_met(row) else 'NOT MET'}"
        )
    ours = f"{median(row['ours']):.2f} s ({min(row['ours']):.2f}..{max(row['ours']):.2f})"
    if not row["original"]:
        return f"{row['label']}: ours {ours}"
    original = f"{median(row['original']):.2f} s ({min(row['original']):.2f}..{max(row['original']):.2f})"
    ratio = median(row["ours"]) / median(row["original"])
    verdict = "met" if row_met(row) else "NOT MET"
    return f"{row['label']}: ours {ours}, original {original}, {ratio:.2f}x; target <= {row['target']:g}x: {verdict}"


def as_table_row(row: dict) -> tuple:
    """(label, detail, target, met), as bench/run.py's table shows its rows."""
    label, _, detail = format_row(row).partition(": ")
    target = f"<= {row['target_kb']} KB" if "ours_kb" in row else f"<= {row['target']:g}x the original"
    if "failed" in row:
        return (f"UI vs 2.3.1: {row['label']}", f"failed: {row['failed']}", target, False)
    return (f"UI vs 2.3.1: {label}", detail.rsplit("; target", 1)[0], target, row_met(row))


def markdown(rows: list[dict]) -> list[str]:
    lines = ["| page: first drawing | ours | MindInsight 2.3.1 | ratio | target | met |", "|---|---|---|---|---|---|"]
    for row in rows:
        met = row_met(row)
        met = "n/a" if met is None else ("yes" if met else "NO")
        if "failed" in row:
            lines.append(f"| {row['label']} | failed: {row['failed'][:120]} | | | <= {row['target']:g}x | NO |")
            continue
        if "ours_kb" in row:
            original = f"{row['original_kb']:.0f} KB" if row["original_kb"] else "-"
            ratio = f"{row['ours_kb'] / row['original_kb']:.2f}x" if row["original_kb"] else "-"
            target = f"<= {row['target_kb']} KB"
            lines.append(f"| {row['label']} | {row['ours_kb']:.0f} KB | {original} | {ratio} | {target} | {met} |")
            continue
        ours = f"{median(row['ours']):.2f} s"
        original = f"{median(row['original']):.2f} s" if row["original"] else "-"
        ratio = f"{median(row['ours']) / median(row['original']):.2f}x" if row["original"] else "-"
        lines.append(f"| {row['label']} | {ours} | {original} | {ratio} | <= {row['target']:g}x | {met} |")
    return lines
