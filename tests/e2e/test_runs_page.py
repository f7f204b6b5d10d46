"""The runs table in a real browser (English and Chinese): with 10,000 runs it shows a page of
rows fetched from the server while the DOM holds only the rows in view; a click on a header
sorts on the server, a query narrows the rows, a bad query shows the server's message with the
place marked, and the URL brings all of it back after a reload. The lineage page's query box
narrows its rows the same way (30 real MindSpore runs)."""

import shutil
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.helpers.fixtures import FIXTURES
from tests.helpers.many_jobs import job_name, write_tiny_jobs
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

JOBS = 10_000
WAIT = 30_000
TEXTS = {
    "en-US": {"all": "10,000 of 10,000 runs", "ten": "10 of 10,000 runs", "link": "Runs Table"},
    "zh-CN": {"all": "共 10,000 个训练，显示 10,000 个", "ten": "共 10,000 个训练，显示 10 个", "link": "训练表格"},
}


@pytest.fixture(scope="module")
def crowded_server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("runs_table")
    write_tiny_jobs(base, JOBS)
    with running_server(base, tmp_path_factory.mktemp("runs_table_ws"), reload_interval=3) as running:
        wait_for(lambda: running.get("/datavisual/train-jobs").json()["load_status"] == "loaded", timeout=120)
        yield running


def shown_runs(page) -> list[str]:
    return page.get_by_test_id("runs-row").all_inner_texts()


def route_query(page) -> dict:
    return parse_qs(urlsplit(page.url.split("#", 1)[1]).query)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_ten_thousand_runs_sort_filter_and_come_back_from_the_url(new_page, crowded_server, locale):
    page = new_page(locale)
    page.goto(crowded_server.url + "/#/summary-manage")
    link = page.get_by_test_id("runs-analysis")
    expect(link).to_have_text(TEXTS[locale]["link"], timeout=WAIT)
    link.click()
    expect(page.get_by_test_id("runs-total")).to_have_text(TEXTS[locale]["all"], timeout=WAIT)
    rows = page.get_by_test_id("runs-row")
    expect(rows.first).to_have_text(f"./{job_name(JOBS - 1)}", timeout=WAIT)
    # Virtualised: the DOM holds the rows in view (and a few beyond), not 10,000 or a page of 100.
    assert 10 <= rows.count() <= 60, rows.count()

    # Sorting on the server: the run-name header, ascending.
    page.locator('[data-testid="runs-header"][data-column="name"]').click()
    expect(rows.first).to_have_text(f"./{job_name(0)}", timeout=WAIT)
    assert route_query(page)["sort"] == ["name"] and route_query(page)["order"] == ["asc"]
    # Rows far down are fetched as they scroll into view.
    page.locator(".el-table-v2__main").evaluate(
        "el => [...el.querySelectorAll('*')].find((e) => e.scrollHeight > e.clientHeight + 100).scrollTo(0, 32 * 5000)"
    )
    expect(rows.filter(has_text=f"./{job_name(5000)}")).to_have_count(1, timeout=WAIT)
    assert rows.count() <= 60

    # A query narrows the rows.
    query_input = page.get_by_test_id("query-input")
    query_input.fill('name ~ "job_0999[0-9]"')
    query_input.press("Enter")
    expect(page.get_by_test_id("runs-total")).to_have_text(TEXTS[locale]["ten"], timeout=WAIT)
    expect(rows).to_have_count(10)
    assert shown_runs(page) == [f"./{job_name(i)}" for i in range(9990, 10000)]

    # The URL restores the query, the sort and the rows.
    page.reload()
    expect(page.get_by_test_id("runs-total")).to_have_text(TEXTS[locale]["ten"], timeout=WAIT)
    expect(query_input).to_have_value('name ~ "job_0999[0-9]"')
    assert shown_runs(page) == [f"./{job_name(i)}" for i in range(9990, 10000)]
    page.locator('[data-testid="runs-header"][data-column="name"]').click()  # now descending
    expect(rows.first).to_have_text(f"./{job_name(9999)}", timeout=WAIT)
    assert route_query(page)["order"] == ["desc"]

    # A mistake: the server's message, the place marked, no stale rows.
    new_page.problems.allow_http(400, "/datavisual/runs")
    query_input.fill('name ~ "job" and (lr < ')
    query_input.press("Enter")
    problem = page.get_by_test_id("query-error")
    expect(problem).to_contain_text("line 1, column 23: the query ends early", timeout=WAIT)
    expect(page.get_by_test_id("query-error-place").locator("mark")).to_have_count(1)
    expect(rows).to_have_count(0)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_summary_columns_sort_the_runs_read_first(new_page, crowded_server, locale):
    # The newest runs are in the detail cache: their loss.last is known (job i logs 1/(i+1)).
    page = new_page(locale)
    page.goto(crowded_server.url + "/#/runs?col=loss.last&sort=loss.last&order=asc")
    cells = page.locator('[data-testid="runs-cell"][data-column="loss.last"]')
    expect(cells.first).to_have_text(f"{1 / JOBS:.6g}", timeout=WAIT)
    expect(page.get_by_test_id("runs-summary-note")).to_be_visible()
    assert page.get_by_test_id("runs-row").first.inner_text() == f"./{job_name(JOBS - 1)}"


@pytest.fixture(scope="module")
def lineage_server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("runs_lineage") / "summary_base"
    for run in sorted((FIXTURES / "h_lineage_30_runs").iterdir()):
        shutil.copytree(run, base / run.name)
    with running_server(base, tmp_path_factory.mktemp("runs_lineage_ws")) as running:
        yield running


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_lineage_query_box_narrows_the_rows(new_page, lineage_server, locale):
    answer = lineage_server.post("/lineagemgr/lineages", json={"query": 'optimizer == "SGD"'}).json()
    sgd = sorted(item["summary_dir"] for item in answer["object"])
    assert 0 < len(sgd) < 30
    page = new_page(locale)
    page.goto(lineage_server.url + "/#/model-traceback")
    expect(page.get_by_test_id("row-count")).to_contain_text("30", timeout=WAIT)
    query_input = page.get_by_test_id("lineage-query").get_by_test_id("query-input")
    query_input.fill('optimizer == "SGD"')
    query_input.press("Enter")
    expect(page.get_by_test_id("row-count")).to_have_attribute("data-shown", str(len(sgd)), timeout=WAIT)
    # The table is built after the chart is drawn: its rows may come after the count.
    expect(page.get_by_test_id("row-path")).to_have_count(len(sgd))
    assert sorted(page.get_by_test_id("row-path").all_inner_texts()) == sgd
    assert route_query(page)["q"] == ['optimizer == "SGD"']

    page.reload()  # the URL keeps the query
    expect(query_input).to_have_value('optimizer == "SGD"', timeout=WAIT)
    expect(page.get_by_test_id("row-count")).to_have_attribute("data-shown", str(len(sgd)), timeout=WAIT)

    new_page.problems.allow_http(400, "/lineagemgr/lineages")
    new_page.problems.allow_http(400, "/optimizer/targets/search")
    query_input.fill("optimizer ==")
    query_input.press("Enter")
    expect(page.get_by_test_id("lineage-query").get_by_test_id("query-error")).to_contain_text(
        "line 1, column 13", timeout=WAIT
    )


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_comparison_run_picker_takes_the_query(new_page, crowded_server, locale):
    page = new_page(locale)
    page.goto(f"{crowded_server.url}/#/compare-analysis/scalar")
    options = page.get_by_test_id("run-option")
    expect(options.first).to_have_attribute("data-run", f"./{job_name(JOBS - 1)}", timeout=WAIT)
    query_input = page.get_by_test_id("compare-query").get_by_test_id("query-input")
    query_input.fill('name ~ "job_000[0-9][0-9]$"')
    query_input.press("Enter")
    # The list holds the runs the query matches (job 0 to 99), the newest five chosen by default.
    expect(options.first).to_have_attribute("data-run", f"./{job_name(99)}", timeout=WAIT)
    expect(options).to_have_count(100)
    assert options.nth(99).get_attribute("data-run") == f"./{job_name(0)}"
    assert route_query(page)["q"] == ['name ~ "job_000[0-9][0-9]$"']
    # The name filter searches within the query's runs: the five chosen stay, then the match.
    page.get_by_test_id("run-filter").fill("job_00003")
    expect(options).to_have_count(5 + 1, timeout=WAIT)
    assert options.nth(5).get_attribute("data-run") == f"./{job_name(3)}"
    page.get_by_test_id("run-filter").fill("")

    page.reload()
    expect(query_input).to_have_value('name ~ "job_000[0-9][0-9]$"', timeout=WAIT)
    expect(options.first).to_have_attribute("data-run", f"./{job_name(99)}", timeout=WAIT)
    expect(options).to_have_count(100)

    new_page.problems.allow_http(400, "/datavisual/train-jobs")
    query_input.fill("name ~")
    query_input.press("Enter")
    expect(page.get_by_test_id("compare-query").get_by_test_id("query-error")).to_contain_text(
        "line 1, column 7", timeout=WAIT
    )
