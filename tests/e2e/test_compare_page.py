"""The scalars comparison page and the summary list's lineage entries in a real browser.

The module's server (tests/e2e/conftest.py) holds b_summary_ops and run1..run3 (c_multi_runs:
three real trainings of LeNet with different optimizers, each recording ``loss/auto/scalar``).
"""

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.test_dashboard import hash_route
from tests.helpers.chart_lines import LINE_PAIRS_JS
from tests.st.conftest import wait_for

WAIT = 20_000
SMOOTHED_0 = f"{LINE_PAIRS_JS}(option.series.find(s => s.id === 'smoothed-0').data)"  # the first run's [x, y] points
LOSS = "loss/auto/scalar"
TEXTS = {
    "en-US": {"title": "Scalars Comparison", "lineage": "Lineage Analysis", "comparison": "Comparison Analysis"},
    "zh-CN": {"title": "标量对比", "lineage": "溯源分析", "comparison": "对比分析"},
}


def loss_chart(page):
    chart = page.locator(f'[data-testid="scalar-chart"][data-tag="{LOSS}"]')
    expect(chart).to_have_attribute("data-rendered", "true", timeout=WAIT)
    return chart


def chart_option(page, expression: str):
    return loss_chart(page).evaluate(
        f"""el => {{
            const chart = [...el.querySelectorAll('*')].map(n => n.miChart).find(Boolean)
            const option = chart.getOption()
            return {expression}
        }}"""
    )


def runs_drawn(page) -> dict[str, str]:
    return chart_option(
        page,
        "Object.fromEntries(option.series.filter(s => String(s.id).startsWith('smoothed-'))"
        ".map(s => [s.name, s.lineStyle.color]))",
    )


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_two_trainings_loss_curves_in_one_chart_with_stable_colours(new_page, server, locale):
    page = new_page(locale)
    page.goto(f"{server.url}/#/compare-analysis/scalar")
    expect(page.locator("h1")).to_have_text(TEXTS[locale]["title"])
    # By default the first five trainings (here all four) are chosen; the loss chart has the three runs.
    drawn = runs_drawn(page)
    assert set(drawn) == {"./run1", "./run2", "./run3"}
    assert len(set(drawn.values())) == 3

    # Dropping run1 keeps the colours of run2 and run3.
    page.locator('[data-testid=run-option][data-run="./run1"]').click()
    expect(page.locator('[data-testid=run-option][data-run="./run1"] input')).not_to_be_checked()
    page.wait_for_function(
        """() => {
            const el = document.querySelector('[data-testid=scalar-chart][data-tag="loss/auto/scalar"]')
            const chart = el && [...el.querySelectorAll('*')].map(n => n.miChart).find(Boolean)
            return chart && chart.getOption().series.filter(s => String(s.id).startsWith('smoothed-')).length === 2
        }"""
    )
    after = runs_drawn(page)
    assert after == {run: drawn[run] for run in ("./run2", "./run3")}
    assert "runs" in hash_route(page.url)[1]

    # A reload keeps the choice and the colours.
    page.reload()
    assert runs_drawn(page) == after


def test_smoothing_log_axis_and_x_axis_change_what_is_drawn(page, server):
    page.goto(f"{server.url}/#/compare-analysis/scalar?runs=.%2Frun1,.%2Frun2")
    raw_count = chart_option(page, "option.series.filter(s => String(s.id).startsWith('raw-')).length")
    assert raw_count == 0
    first = chart_option(page, f"{SMOOTHED_0}.slice(0, 20).map(p => p[1])")

    page.get_by_test_id("smoothing-input").locator("input").fill("0.9")
    page.get_by_test_id("smoothing-input").locator("input").press("Enter")
    page.wait_for_function("() => location.hash.includes('smoothing=0.9')")
    smoothed = chart_option(page, f"{SMOOTHED_0}.slice(0, 20).map(p => p[1])")
    assert smoothed != first
    assert chart_option(page, "option.series.filter(s => String(s.id).startsWith('raw-')).length") == 2

    loss_chart(page).get_by_test_id("chart-log-y").click()
    page.wait_for_function("() => location.hash.includes('logy=')")
    assert chart_option(page, "option.yAxis[0].type") == "log"

    page.get_by_test_id("x-axis").locator('[data-value="relative"]').click()
    page.wait_for_function("() => location.hash.includes('xaxis=relative')")
    xs = chart_option(page, f"{SMOOTHED_0}.map(p => p[0])")
    assert xs[0] == 0 and xs == sorted(xs)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_summary_list_entries_lead_to_lineage_and_comparison(new_page, server, locale):
    page = new_page(locale)
    page.goto(f"{server.url}/#/summary-manage")
    lineage = page.get_by_test_id("lineage-analysis")
    expect(lineage).to_have_text(TEXTS[locale]["lineage"])
    lineage.click()
    expect(page.get_by_test_id("model-lineage-page")).to_be_visible()
    assert hash_route(page.url)[0] == "/model-traceback"
    page.go_back()
    page.get_by_test_id("comparison-analysis").click()
    expect(page.get_by_test_id("compare-scalar-page")).to_be_visible()
    assert hash_route(page.url)[0] == "/compare-analysis/scalar"


def test_parameter_details_show_the_job_lineage(page, server):
    lineage = server.post("/lineagemgr/lineages", json={"summary_dir": {"in": ["./run1"]}}).json()["object"][0][
        "model_lineage"
    ]
    page.goto(f"{server.url}/#/summary-manage")
    row = page.locator('[data-testid=summary-row][data-train-id="./run1"]')
    row.get_by_test_id("parameter-details-link").click()
    dialog = page.get_by_test_id("parameter-details")
    expect(dialog).to_contain_text("./run1")
    table = page.get_by_test_id("parameter-table")
    expect(table.locator(".el-table__body tr").first).to_be_visible(timeout=WAIT)
    text = table.inner_text()
    assert str(lineage["batch_size"]) in text and lineage["optimizer"] in text
    # The metrics row expands into one row per metric.
    metric_row = table.locator(".el-table__body tr", has=page.locator(".el-table__expand-icon"))
    before = table.locator(".el-table__body tr:visible").count()
    metric_row.first.locator(".el-table__expand-icon").click()
    expect(table.locator(".el-table__body tr:visible")).to_have_count(before + len(lineage["metric"]))
    # b_summary_ops has no lineage: no link.
    expect(
        page.locator('[data-testid=summary-row][data-train-id="./b_summary_ops"]').get_by_test_id(
            "parameter-details-link"
        )
    ).to_have_count(0)


def cache_statuses(server, train_ids):
    jobs = server.get("/datavisual/train-jobs", params={"limit": 100}).json()["train_jobs"]
    return [next((job["cache_status"] for job in jobs if job["train_id"] == run), None) for run in train_ids]


def test_opening_the_page_sends_each_request_once(page, server):
    """Opening the page lists the trainings once (their tags come with the list), marks the
    chosen ones as used in one request (not one `plugins` each), asks the shown charts' scalars
    once, compact (before the fix every one of them went out twice) and each drawn line's
    buckets once."""
    chosen = ["./b_summary_ops", "./run1", "./run2", "./run3"]
    server.post("/datavisual/train-job-caches", json={"train_ids": chosen}).raise_for_status()
    wait_for(lambda: all(status == "CACHED" for status in cache_statuses(server, chosen)))
    page.add_init_script("localStorage.setItem('isTimeReload', 'false')")  # no auto refresh mid-count
    sent = []
    page.on("request", lambda request: "/datavisual/" in request.url and sent.append(request))
    page.goto(f"{server.url}/#/compare-analysis/scalar")
    loss_chart(page)
    page.wait_for_timeout(1500)  # anything late (a second round) would go out within this time
    urls = [urlsplit(request.url) for request in sent]
    paths = [url.path.rsplit("/datavisual/", 1)[1] for url in urls]
    assert paths.count("train-jobs") == 1, paths
    assert paths.count("train-job-caches") == 1, paths
    touched = next(request for request in sent if request.url.endswith("/train-job-caches"))
    assert sorted(touched.post_data_json["train_ids"]) == chosen
    scalars = [parse_qs(url.query) for url in urls if url.path.endswith("/datavisual/scalars")]
    assert len(scalars) == 1, paths
    assert scalars[0]["compact"] == ["true"] and sorted(scalars[0]["train_id"]) == chosen
    assert set(paths) == {"train-jobs", "train-job-caches", "scalars", "scalar/buckets"}, paths
    # Then every point of each drawn line (its min/max buckets), asked once per line.
    queries = [parse_qs(url.query) for url in urls if url.path.endswith("/scalar/buckets")]
    buckets = [(query["train_id"][0], query["tag"][0]) for query in queries]
    assert len(buckets) == len(set(buckets)), buckets
    assert {("./run1", LOSS), ("./run2", LOSS), ("./run3", LOSS)} <= set(buckets)
