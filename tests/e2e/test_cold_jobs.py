"""Pages opened first on a job the server has not read yet (after a restart, or beyond the jobs it
keeps in its detail cache): each must wait while the server loads the job and draw it as soon as
it is read, without a reload.

Every test starts its own server over as many small jobs (g_max_file_size) as the detail cache
holds, all newer than the jobs under test, so the cache (the newest jobs first) is full of them and
the jobs under test are NOT_IN_CACHE when the page opens: the page itself must ask the server to
load them. Auto refresh is off: what a page draws, it drew without a refresh.
"""

import os
import time
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from mindinsight.conf.limits import MAX_CACHED_TRAIN_JOBS
from tests.e2e.conftest import TIMEOUT_MS
from tests.helpers.fixtures import MULTI_RUNS, copy_job
from tests.helpers.server import running_server

LANDSCAPE_JOB = "./d_landscape_epoch"
DAY = 86_400


def age(folder, seconds_ago: float) -> None:
    """Give every file of a job (and the folder) the same modification time, ``seconds_ago``."""
    stamp = time.time() - seconds_ago
    for path in [*folder.rglob("*"), folder]:
        os.utime(path, (stamp, stamp))


@pytest.fixture
def cold_server(built_ui, tmp_path):
    """A fresh server on which d_landscape_epoch, run1 and run2 are listed but NOT_IN_CACHE."""
    base = tmp_path / "summary_base"
    cold = [copy_job("d_landscape_epoch", base / "d_landscape_epoch")]
    cold += [copy_job(f"c_multi_runs/{run}", base / f"run{index}") for index, run in enumerate(MULTI_RUNS[:2], 1)]
    for job in cold:
        age(job, 30 * DAY)
    for index in range(MAX_CACHED_TRAIN_JOBS):
        age(copy_job("g_max_file_size", base / f"recent_{index:02d}"), DAY)
    with running_server(base, tmp_path / "workspace", reload_interval=0) as server:
        listed = server.get("/datavisual/train-jobs", params={"limit": 50}).json()["train_jobs"]
        status = {job["train_id"]: job["cache_status"] for job in listed}
        assert [status[f"./{job.name}"] for job in cold] == ["NOT_IN_CACHE"] * 3
        yield server


def requests_of(page) -> list[tuple[float, str]]:
    """(time, url) of every REST request the page sends from now on, in order."""
    sent = []
    page.on(
        "request",
        lambda request: "/v1/mindinsight/" in request.url and sent.append((time.monotonic(), request.url)),
    )
    return sent


def without_auto_refresh(page):
    """The page's auto refresh off (the original's stored preference): what it draws, it drew by itself."""
    page.add_init_script("window.localStorage.setItem('isTimeReload', 'false')")
    return page


def test_loss_analysis_draws_the_landscape_once_the_job_is_read(page, cold_server):
    without_auto_refresh(page).goto(f"{cold_server.url}/#/train-manage/loss-analysis?train_id={LANDSCAPE_JOB}")
    expect(page.get_by_test_id("landscape-chart")).to_have_attribute("data-rendered", "true", timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("interval-select")).to_be_visible()
    expect(page.get_by_test_id("loss-curve")).to_have_attribute("data-rendered", "true")
    expect(page.get_by_text("50545005")).to_have_count(0)


def test_graph_draws_once_the_job_is_read(page, cold_server):
    without_auto_refresh(page).goto(f"{cold_server.url}/#/train-manage/graph?train_id={LANDSCAPE_JOB}")
    expect(page.get_by_test_id("graph-node").first).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("no-graph")).to_have_count(0)


def test_loss_comparison_draws_the_final_landscape_once_the_job_is_read(page, cold_server):
    without_auto_refresh(page).goto(f"{cold_server.url}/#/compare-analysis/loss?runs={quote(LANDSCAPE_JOB, safe='')}")
    panel = page.locator(f'[data-testid=landscape-panel][data-run="{LANDSCAPE_JOB}"]')
    expect(panel.get_by_test_id("tile-chart")).to_have_attribute("data-rendered", "true", timeout=TIMEOUT_MS)
    expect(panel.get_by_test_id("no-landscape-run")).to_have_count(0)


def test_scalar_comparison_of_two_cold_runs_draws_once_read_asking_once(page, cold_server):
    sent = requests_of(without_auto_refresh(page))
    started = time.monotonic()
    page.goto(f"{cold_server.url}/#/compare-analysis/scalar?runs=.%2Frun1,.%2Frun2")
    page.wait_for_function(
        """() => {
            const el = document.querySelector('[data-testid=scalar-chart][data-tag="loss/auto/scalar"]')
            const drawn = el && el.dataset.rendered === 'true'
            const chart = drawn && [...el.querySelectorAll('*')].map(n => n.miChart).find(Boolean)
            return chart && chart.getOption().series.filter(s => String(s.id).startsWith('smoothed-')).length === 2
        }""",
        timeout=TIMEOUT_MS,
    )
    print(f"\nfirst chart of two cold runs after {time.monotonic() - started:.2f} s")
    page.wait_for_load_state("networkidle")
    urls = [url.split("/v1/mindinsight/")[1] for _moment, url in sent]
    for moment, url in sent:
        print(f"  {moment - started:6.2f} {url.split('/v1/mindinsight/')[1]}")
    # Two small runs are read before the page's first look at them: no request goes out twice.
    assert [url for url in urls if urls.count(url) > 1] == []
    # Each run was asked to be loaded, and its loss read, once.
    assert sorted(url for url in urls if url.startswith("datavisual/plugins")) == [
        f"datavisual/plugins?train_id=.%2Frun{index}&manual_update=true" for index in (1, 2)
    ]
    assert len([url for url in urls if url.startswith("datavisual/scalars")]) == 1


def test_scalar_page_of_a_cold_job_looks_again_soon_and_asks_each_chart_once(page, cold_server):
    """The first read of a job the server has not read yet finds it loading, without tags: the
    page looks again after a short first look (the server reads an asked-for job at once), not
    only after its regular poll (CACHING_POLL_MS, 1.5 s), and the tags that look brings are each
    read once, though the new revision and the charts it puts on screen both ask for them.

    The cold job is opened from the page already showing another one, so that the page's code is
    in and nothing else keeps its main thread busy while the first look is due."""
    without_auto_refresh(page).goto(f"{cold_server.url}/#/train-manage/scalar?train_id=.%2Frun2")
    expect(page.get_by_test_id("scalar-chart").first).to_have_attribute("data-rendered", "true", timeout=TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    answered = []
    page.on(
        "response", lambda response: "plugins?train_id=.%2Frun1" in response.url and answered.append(time.monotonic())
    )
    sent = requests_of(page)
    page.evaluate("location.hash = '#/train-manage/scalar?train_id=.%2Frun1'")
    expect(page.locator('[data-testid=scalar-chart][data-rendered="true"]')).not_to_have_count(0, timeout=TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    urls = [url.split("/v1/mindinsight/")[1] for _moment, url in sent]
    assert [url for url in urls if url.startswith("datavisual/scalar/metadata") and urls.count(url) > 1] == []
    looks = [moment for moment, url in sent if "plugins?train_id=.%2Frun1" in url]
    assert len(looks) >= 2, urls  # the first read found the job loading
    print(f"\nsecond look {looks[1] - answered[0]:.2f} s after the first answer")
    assert looks[1] - answered[0] < 1.25  # the regular poll comes 1.5 s after it (1.49 s measured here)
