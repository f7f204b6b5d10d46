"""Ten thousand train jobs in a real browser: the summary list pages on the server, and the
comparison run picker lists the newest few and finds the others with a search on the server,
never rendering ten thousand rows (English and Chinese)."""

import time
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from mindinsight.conf.limits import MAX_TRAIN_JOBS_PAGE_LIMIT
from tests.helpers.many_jobs import job_name, write_tiny_jobs
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

JOBS = 10_000
WAIT = 30_000
LISTED_RUNS = 100  # ui/src/composables/runsData.js
TEXTS = {
    "en-US": {"shown": f"{LISTED_RUNS} of 10,000 trainings listed", "matches": "100 of 1,000 matching trainings"},
    "zh-CN": {"shown": f"已列出 {LISTED_RUNS} 个训练（共 10,000 个）", "matches": "100 个匹配的训练（共 1,000 个）"},
}


def drawn_runs(page) -> list[str]:
    """Names of the lines the loss chart draws."""
    chart = page.locator('[data-testid="scalar-chart"][data-tag="loss/scalar"]')
    expect(chart).to_have_attribute("data-rendered", "true", timeout=WAIT)
    return chart.evaluate(
        """el => {
            const chart = [...el.querySelectorAll('*')].map(n => n.miChart).find(Boolean)
            return chart.getOption().series.filter(s => String(s.id).startsWith('smoothed-')).map(s => s.name)
        }"""
    )


@pytest.fixture(scope="module")
def crowded_server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("ten_thousand")
    started = time.monotonic()
    write_tiny_jobs(base, JOBS)
    print(f"\nwrote {JOBS} job dirs in {time.monotonic() - started:.1f} s")
    with running_server(base, tmp_path_factory.mktemp("ten_thousand_ws"), reload_interval=3) as running:
        wait_for(lambda: running.get("/datavisual/train-jobs").json()["load_status"] == "loaded", timeout=120)
        yield running


def train_jobs_requests(page) -> list[dict]:
    sent = []
    page.on(
        "request",
        lambda request: (
            request.url.split("?")[0].endswith("/datavisual/train-jobs")
            and sent.append({key: values[0] for key, values in parse_qs(urlsplit(request.url).query).items()})
        ),
    )
    return sent


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_summary_list_pages_ten_thousand_jobs_on_the_server(new_page, crowded_server, locale):
    page = new_page(locale)
    sent = train_jobs_requests(page)
    page.goto(crowded_server.url + "/")
    rows = page.get_by_test_id("summary-row")
    expect(rows.first).to_have_attribute("data-train-id", f"./{job_name(JOBS - 1)}", timeout=WAIT)
    expect(page.locator(".el-pagination__total")).to_contain_text("10000")
    count = rows.count()
    assert 0 < count <= 50
    # The last page holds the oldest job.
    page.locator(".el-pagination .el-pager li.number").last.click()
    expect(rows.last).to_have_attribute("data-train-id", f"./{job_name(0)}", timeout=WAIT)
    assert all(int(params["limit"]) <= 50 for params in sent), sent
    assert any(int(params["offset"]) == JOBS // count - 1 for params in sent), sent
    expect(page.get_by_test_id("scan-stopped")).to_have_count(0)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_run_picker_searches_ten_thousand_runs_on_the_server(new_page, crowded_server, locale):
    page = new_page(locale)
    sent = train_jobs_requests(page)
    page.goto(f"{crowded_server.url}/#/compare-analysis/scalar")
    options = page.get_by_test_id("run-option")
    expect(options.first).to_have_attribute("data-run", f"./{job_name(JOBS - 1)}", timeout=WAIT)
    expect(page.get_by_test_id("run-count")).to_contain_text(TEXTS[locale]["shown"])
    assert options.count() == LISTED_RUNS
    assert all(int(params["limit"]) <= MAX_TRAIN_JOBS_PAGE_LIMIT for params in sent)

    # An old training, far past the listed ones and the original's 999: found by the server.
    wanted = f"./{job_name(7)}"
    sent.clear()
    page.get_by_test_id("run-filter").fill("JOB_0000")
    target = page.locator(f'[data-testid=run-option][data-run="{wanted}"]')
    expect(target).to_be_visible(timeout=WAIT)
    searches = [params for params in sent if "query" in params]
    assert searches and searches[-1]["query"] == 'name ~ "(?i)JOB_0000"', sent
    # The five chosen by default stay shown, then the ten matches.
    expect(options).to_have_count(5 + 10)
    newest = page.locator(f'[data-testid=run-option][data-run="./{job_name(JOBS - 1)}"]')
    newest.click()  # five are chosen: one goes to make room
    expect(newest).to_have_count(0)  # no longer chosen, and no match of the search
    target.click()
    expect(target.locator("input")).to_be_checked()
    page.wait_for_function(
        """wanted => {
            const el = document.querySelector('[data-testid="scalar-chart"][data-tag="loss/scalar"]')
            const chart = el && [...el.querySelectorAll('*')].map(n => n.miChart).find(Boolean)
            return Boolean(chart) && chart.getOption().series.some(s => s.name === wanted)
        }""",
        arg=wanted,
        timeout=WAIT,
    )

    # Cleared, the picker lists the newest again and the chosen old one after them.
    page.get_by_test_id("run-filter").fill("")
    expect(options).to_have_count(LISTED_RUNS + 1)
    expect(options.last).to_have_attribute("data-run", wanted)
    expect(options.last.locator("input")).to_be_checked()

    # A wide search says how many it leaves out.
    page.get_by_test_id("run-filter").fill("job_09")
    expect(page.get_by_test_id("run-count")).to_contain_text(TEXTS[locale]["matches"], timeout=WAIT)
    expect(options).to_have_count(1 + LISTED_RUNS)  # job_00007 (chosen) then the newest 100 matches


def test_a_run_named_in_the_url_past_the_listed_ones_is_drawn(new_page, crowded_server):
    page = new_page("en-US")
    wanted = f"./{job_name(3)}"
    page.goto(f"{crowded_server.url}/#/compare-analysis/scalar?runs={wanted}")
    option = page.locator(f'[data-testid=run-option][data-run="{wanted}"]')
    expect(option.locator("input")).to_be_checked(timeout=WAIT)
    assert drawn_runs(page) == [wanted]
