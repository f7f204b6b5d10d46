"""A comparison of 100 runs drawn cold: ``python bench/compare_bench.py [--runs 5]``.

Writes 100 jobs (5 configs x 20 seeds, one scalar tag of 1,000 steps each, our SummaryWriter,
tests/helpers/run_sweep.py), starts the real server (``mindinsight start``), has it read every
job, then opens the scalars comparison of all 100 in Debian's Chromium (headless, Playwright)
in a fresh browser context each time (empty HTTP cache, no storage: a first visit) and prints
the median over ``--runs`` of the time from the start of navigation until the chart holds all
100 lines and ECharts reports it drawn; the same for the runs grouped by seed
(``group=regex:_seed[0-9]+``: 5 mean curves with their bands); and the server's time to answer
``datavisual/scalars`` for the 100 runs (the original's answer, and the compact one the page
asks for). Needs the built UI (``cd ui && npm run build``).
Target (issue #22): 100 runs x 1 tag (1,000 points each) drawn <= 1 s cold.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import requests
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.helpers.run_sweep import SWEEP_TAG, write_sweep  # noqa: E402
from tests.helpers.server import running_server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
TIMEOUT_MS = 60_000

# Evaluated every animation frame: the time since navigation start once the chart of `tag`
# holds `count` series whose id starts with `prefix` and is drawn, else false.
DRAWN = """([testid, tag, prefix, count]) => {
    const el = document.querySelector(`[data-testid=${testid}][data-tag="${tag}"]`)
    const chart = el && [...el.querySelectorAll('*')].map(n => n.miChart).find(Boolean)
    if (!chart || el.dataset.rendered !== 'true') return false
    const series = chart.getOption().series.filter(s => String(s.id).startsWith(prefix))
    return series.length === count && performance.now()
}"""


def wait_all_cached(server, ids, timeout=180.0) -> None:
    server.post("/datavisual/train-job-caches", json={"train_ids": ids}).raise_for_status()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        jobs = server.get("/datavisual/train-jobs", params={"limit": 999}).json()["train_jobs"]
        if sum(job["cache_status"] == "CACHED" for job in jobs) >= len(ids):
            return
        time.sleep(0.5)
    raise SystemExit("the server did not read every job in time")


def draw_times(browser, url: str, testid: str, prefix: str, count: int, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        try:
            page = context.new_page()
            page.goto(url)
            handle = page.wait_for_function(
                DRAWN, arg=[testid, SWEEP_TAG, prefix, count], polling="raf", timeout=TIMEOUT_MS
            )
            times.append(handle.json_value())
        finally:
            context.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold loads measured per figure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base, workspace = Path(tmp) / "base", Path(tmp) / "ws"
        base.mkdir()
        started = time.monotonic()
        ids = write_sweep(base, configs=5, seeds=20, points=1000)
        print(f"wrote {len(ids)} jobs x 1,000 points in {time.monotonic() - started:.1f} s")
        with running_server(base, workspace, reload_interval=3) as server:
            wait_all_cached(server, ids)
            for extra, name in (({}, "datavisual/scalars"), ({"compact": "true"}, "the same, compact=true")):
                answers = []
                for _ in range(5):
                    began = time.perf_counter()
                    response = requests.get(
                        f"{server.api}/datavisual/scalars",
                        params={"train_id": ids, "tag": SWEEP_TAG, **extra},
                        timeout=60,
                    )
                    response.raise_for_status()
                    answers.append(time.perf_counter() - began)
                size = len(response.content)
                print(
                    f"{name}, 100 runs x 1 tag: median {statistics.median(answers) * 1000:.0f} ms "
                    f"of 5 ({size / 1e6:.1f} MB)"
                )
            runs_query = quote(",".join(ids), safe="")
            url = f"{server.url}/#/compare-analysis/scalar?runs={runs_query}"
            grouped = f"{url}&group={quote('regex:_seed[0-9]+', safe='')}"
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    lines = draw_times(browser, url, "scalar-chart", "smoothed-", 100, args.runs)
                    groups = draw_times(browser, grouped, "group-chart", "center-", 5, args.runs)
                finally:
                    browser.close()
    print(
        f"100 runs x 1 tag (1,000 points each) drawn cold: median {statistics.median(lines):.0f} ms "
        f"of {args.runs} (min {min(lines):.0f}, max {max(lines):.0f}; target <= 1000 ms)"
    )
    print(
        f"the same grouped by seed (5 mean curves with std bands): median {statistics.median(groups):.0f} ms "
        f"of {args.runs} (min {min(groups):.0f}, max {max(groups):.0f})"
    )


if __name__ == "__main__":
    main()
