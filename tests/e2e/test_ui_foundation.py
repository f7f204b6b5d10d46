"""The UI foundation in a real browser: summary list, training dashboard cards, tag selection in
the URL (on the histogram page), language and theme switches, refresh, and a URL path prefix."""

import shutil
import time
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import make_base
from tests.helpers.fixtures import B_SUMMARY_OPS_SCALAR_TAGS, FIXTURES, MULTI_RUNS, copy_job
from tests.helpers.server import running_server

SUMMARY_OPS_TAGS = list(B_SUMMARY_OPS_SCALAR_TAGS)  # steps 1..300
JOBS = {"./b_summary_ops", "./run1", "./run2", "./run3"}

TEXTS = {
    "en-US": {
        "list_title": "Summary List",
        "nav": "Summary List",
        "dashboard_link": "Training Dashboard",
        "dashboard_title": "Training Dashboard",
        "summary_path": "Summary path: ./b_summary_ops",
        "scalar_section": "Training Scalar Information",
        "all": "All",
        "stored": "en-us",
    },
    "zh-CN": {
        "list_title": "训练列表",
        "nav": "训练列表",
        "dashboard_link": "训练看板",
        "dashboard_title": "训练看板",
        "summary_path": "训练日志路径：./b_summary_ops",
        "scalar_section": "训练标量信息",
        "all": "全选",
        "stored": "zh-cn",
    },
}

# The dashboard's scalar card: the job's first two scalar tags in one chart.
CARD = '[data-testid="dashboard-scalar-chart"]'
WAIT = 20_000  # ms: a first load on a busy 2-core machine can take a few seconds
HISTOGRAM_TAGS = ["conv1_out/histogram", "fc1_out/histogram", "fc3.weight/histogram"]


def dashboard_url(server, train_id: str, tags=None) -> str:
    url = f"{server.url}/#/train-manage/training-dashboard?id={quote(train_id, safe='./')}"
    if tags is not None:
        url += "&tags=" + quote(",".join(tags), safe="/,")
    return url


def rows(page):
    return page.locator('[data-testid="summary-row"]')


def card_tags(page) -> list[str]:
    """Wait until the dashboard's scalar card has drawn; the tags it shows."""
    expect(page.locator(CARD + '[data-rendered="true"]')).to_have_count(1, timeout=WAIT)
    return page.locator(CARD).get_attribute("data-tags").split(",")


def histogram_url(server, tags=None) -> str:
    url = f"{server.url}/#/train-manage/histogram?train_id=./b_summary_ops&summaryPath=./b_summary_ops"
    if tags is not None:
        url += "&tags=" + quote(",".join(tags), safe="/,")
    return url


def histogram_tags(page, count: int) -> list[str]:
    """Wait until exactly ``count`` distribution charts exist and have drawn; their tags."""
    charts = page.get_by_test_id("histogram-chart")
    expect(charts).to_have_count(count, timeout=WAIT)
    drawn = charts.locator('[data-testid="distribution-chart"][data-rendered="true"]')
    expect(drawn).to_have_count(count, timeout=WAIT)
    return charts.evaluate_all("els => els.map(e => e.dataset.tag)")


def open_summary_list(page, server):
    page.goto(server.url + "/")
    expect(page).to_have_url(f"{server.url}/#/summary-manage")
    expect(rows(page)).to_have_count(len(JOBS))


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_summary_list_to_dashboard_charts(page, server, locale):
    texts = TEXTS[locale]
    open_summary_list(page, server)
    if locale == "zh-CN":
        page.get_by_test_id("lang-zh").click()
    assert page.evaluate("localStorage.getItem('milang')") in (None, texts["stored"])

    expect(page.locator("html")).to_have_attribute("lang", locale)
    expect(page.locator("h1")).to_have_text(texts["list_title"])
    expect(page.get_by_test_id("nav-summary-list")).to_have_text(texts["nav"])
    train_ids = rows(page).evaluate_all("els => els.map(e => e.dataset.trainId)")
    assert set(train_ids) == JOBS
    # The "No." column numbers the rows, the path column shows the train id.
    for index, train_id in enumerate(train_ids):
        cells = rows(page).nth(index).locator("td")
        expect(cells.nth(0)).to_have_text(str(index + 1))
        expect(cells.nth(1)).to_have_text(train_id)

    row = page.locator('[data-testid="summary-row"][data-train-id="./b_summary_ops"]')
    link = row.get_by_role("link", name=texts["dashboard_link"])
    link.click()

    expect(page).to_have_url(dashboard_url(server, "./b_summary_ops"))
    expect(page.get_by_test_id("dashboard-title")).to_have_text(texts["dashboard_title"])
    expect(page.get_by_text(texts["summary_path"])).to_be_visible()
    expect(page.get_by_role("heading", name=texts["scalar_section"])).to_be_visible()
    # The scalar card draws the first two of the job's tags, on a canvas of real size.
    assert card_tags(page) == SUMMARY_OPS_TAGS[:2]
    box = page.locator(CARD + " canvas").first.bounding_box()
    assert box and box["width"] > 200 and box["height"] > 150


def test_language_follows_browser_then_saved_choice(new_page, server):
    page = new_page("zh-CN")  # no saved choice: navigator.language decides
    open_summary_list(page, server)
    expect(page.locator("h1")).to_have_text("训练列表")
    page.get_by_test_id("lang-en").click()
    expect(page.locator("h1")).to_have_text("Summary List")
    page.reload()
    expect(rows(page)).to_have_count(len(JOBS))
    expect(page.locator("h1")).to_have_text("Summary List")  # the saved choice beats the browser language
    assert page.evaluate("localStorage.getItem('milang')") == "en-us"


def test_tag_subset_in_url(page, server):
    # The tag selection of a per-tag page lives in the URL (the dashboard itself has no tag list).
    page.goto(histogram_url(server, ["fc3.weight/histogram", "conv1_out/histogram"]))
    # Charts follow the job's tag order, whatever the order in the URL.
    assert histogram_tags(page, 2) == ["conv1_out/histogram", "fc3.weight/histogram"]
    expect(page.locator('[data-testid="tag-option"][data-tag="conv1_out/histogram"] input')).to_be_checked()
    expect(page.locator('[data-testid="tag-option"][data-tag="fc1_out/histogram"] input')).not_to_be_checked()
    expect(page.get_by_test_id("tag-select-all")).to_contain_text("All")

    # Unticking a tag updates the URL; reloading that URL reproduces the view.
    page.locator('[data-testid="tag-option"][data-tag="fc3.weight/histogram"]').click()
    expect(page).to_have_url(histogram_url(server, ["conv1_out/histogram"]))
    assert histogram_tags(page, 1) == ["conv1_out/histogram"]
    page.reload()
    assert histogram_tags(page, 1) == ["conv1_out/histogram"]

    # The regex filter narrows the list; "All" then selects just the matching tags.
    page.get_by_test_id("tag-filter").fill("^fc1")
    expect(page.get_by_test_id("tag-option")).to_have_count(1)
    page.get_by_test_id("tag-select-all").click()
    # The filter also hides the charts it does not match: conv1_out stays selected, out of view.
    assert histogram_tags(page, 1) == ["fc1_out/histogram"]
    page.get_by_test_id("tag-filter").fill("")
    assert histogram_tags(page, 2) == ["conv1_out/histogram", "fc1_out/histogram"]

    # Selecting everything drops the parameter (all tags is the default view).
    page.get_by_test_id("tag-select-all").click()
    expect(page).to_have_url(histogram_url(server))
    assert histogram_tags(page, 3) == HISTOGRAM_TAGS

    # Nothing selected: no chart, a hint instead.
    page.get_by_test_id("tag-select-all").click()
    expect(page).to_have_url(histogram_url(server, []))
    expect(page.get_by_test_id("histogram-chart")).to_have_count(0)


def test_dark_theme_switch(page, server):
    page.goto(dashboard_url(server, "./b_summary_ops"))
    card_tags(page)
    html = page.locator("html")
    expect(html).to_have_attribute("data-theme", "light")
    body_light = page.evaluate("getComputedStyle(document.body).backgroundColor")

    page.get_by_test_id("theme-select").select_option(label="Dark Theme")
    expect(html).to_have_attribute("data-theme", "dark")
    assert page.evaluate("localStorage.getItem('miTheme')") == "1"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != body_light
    # Charts are re-themed and render again.
    expect(page.locator(CARD + '[data-rendered="true"]')).to_have_count(1, timeout=WAIT)
    expect(page.locator('[data-testid="distribution-chart"][data-rendered="true"]')).to_have_count(1, timeout=WAIT)

    page.reload()
    expect(html).to_have_attribute("data-theme", "dark")
    card_tags(page)


def test_unknown_job_shows_server_error(page, server):
    page.problems.allow_http(400, "train_id=.%2Fno_such_job")
    page.goto(dashboard_url(server, "./no_such_job"))
    notice = page.get_by_test_id("error-notice")
    expect(notice).to_contain_text("Train job is not exist")
    expect(notice).to_contain_text("50545005")
    notice.get_by_role("link").click()
    expect(page).to_have_url(f"{server.url}/#/summary-manage")


def test_refresh_shows_new_jobs_and_keeps_state(new_page, tmp_path):
    base = make_base(tmp_path / "base", with_summary_ops=False, runs=1)
    with running_server(base, tmp_path / "workspace", reload_interval=1) as live:
        page = new_page("en-US")
        page.goto(live.url + "/")
        expect(rows(page)).to_have_count(1)
        page.get_by_test_id("auto-refresh-switch").click()  # off: only the button refreshes now
        assert page.evaluate("localStorage.getItem('isTimeReload')") == "false"

        shutil.copytree(FIXTURES / "c_multi_runs" / MULTI_RUNS[1], base / "run2")
        deadline = time.monotonic() + 30
        while rows(page).count() < 2:
            assert time.monotonic() < deadline, "the new job never appeared after manual refresh"
            page.get_by_test_id("refresh-button").click()
            page.wait_for_timeout(500)
        assert set(rows(page).evaluate_all("els => els.map(e => e.dataset.trainId)")) == {"./run1", "./run2"}

        # Auto refresh back on: a dashboard keeps showing its data across refreshes.
        page.get_by_test_id("auto-refresh-switch").click()
        page.goto(dashboard_url(live, "./run1"))
        assert card_tags(page) == ["loss/auto/scalar"]
        with page.expect_request(lambda request: "scalar/metadata" in request.url):
            page.get_by_test_id("refresh-button").click()
        page.wait_for_timeout(1000)
        assert card_tags(page) == ["loss/auto/scalar"]


def test_works_under_url_path_prefix(page, built_ui, tmp_path):
    base = make_base(tmp_path / "base", runs=1)
    copy_job("f_save_graphs", base / "f_save_graphs")  # graph files only, no scalars
    with running_server(base, tmp_path / "workspace", url_path_prefix="/mi") as prefixed:
        assert prefixed.url.endswith("/mi")
        page.goto(prefixed.url + "/")
        expect(rows(page)).to_have_count(3)
        page.locator('[data-testid="summary-row"][data-train-id="./b_summary_ops"] a').click()
        assert card_tags(page) == SUMMARY_OPS_TAGS[:2]
        # The sampled image is fetched through the prefix too.
        image = page.get_by_test_id("dashboard-image")
        expect(image).to_be_visible(timeout=WAIT)
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())

        # A job without scalars gets the empty state (how to collect them), in the current language.
        page.goto(dashboard_url(prefixed, "./f_save_graphs"))
        scalar_card = page.locator('[data-testid="dashboard-card"][data-kind="scalar"]')
        expect(scalar_card.get_by_test_id("card-state")).to_contain_text("save scalar data", timeout=WAIT)
        page.get_by_test_id("lang-zh").click()
        expect(scalar_card.get_by_test_id("card-state")).to_contain_text("保存标量数据")
        expect(page.locator(CARD)).to_have_count(0)


def test_summary_list_paging(page, built_ui, tmp_path):
    base = tmp_path / "base"
    base.mkdir()
    for index in range(23):
        copy_job("g_max_file_size", base / f"job_{index:02d}")
    with running_server(base, tmp_path / "workspace") as many:
        page.goto(many.url + "/")
        pagination = page.locator(".el-pagination")
        expect(pagination.locator(".el-pagination__total")).to_contain_text("23")
        expect(rows(page)).to_have_count(20)  # default page size
        first_page = rows(page).evaluate_all("els => els.map(e => e.dataset.trainId)")

        pagination.locator("button.btn-next").click()
        expect(rows(page)).to_have_count(3)
        expect(rows(page).first.locator("td").first).to_have_text("21")
        second_page = rows(page).evaluate_all("els => els.map(e => e.dataset.trainId)")
        assert set(first_page) | set(second_page) == {f"./job_{index:02d}" for index in range(23)}
        assert not set(first_page) & set(second_page)

        pagination.locator(".el-pagination__sizes .el-select").click()
        page.locator(".el-select-dropdown__item", has_text="10/page").click()
        expect(rows(page)).to_have_count(10)
        expect(rows(page).first.locator("td").first).to_have_text("1")
        pagination.locator("button.btn-next").click()
        pagination.locator("button.btn-next").click()
        expect(rows(page)).to_have_count(3)
        expect(rows(page).last.locator("td").first).to_have_text("23")

        # Page and size are kept for the session.
        page.reload()
        expect(rows(page)).to_have_count(3)
        expect(pagination.locator(".el-pager li.is-active")).to_have_text("3")

        # The server keeps only 15 jobs in its detail cache: the dashboard of another one asks
        # for it to be loaded, says it is loading, and draws the chart once it is cached.
        jobs = many.get("/datavisual/train-jobs", params={"limit": 50}).json()["train_jobs"]
        uncached = next(job["train_id"] for job in jobs if job["cache_status"] == "NOT_IN_CACHE")
        page.goto(dashboard_url(many, uncached))
        assert card_tags(page) == ["loss/scalar"]
        expect(page.get_by_test_id("job-loading")).to_have_count(0)
        assert (
            many.get("/datavisual/train-jobs", params={"train_id": uncached}).json()["train_jobs"][0]["cache_status"]
            == "CACHED"
        )
