"""The profiler's operator page in a real browser, on h_profiler_resnet (MindSpore 2.10 CPU profiler
output: 18 operator types, 104 operators, in FRAMEWORK/cpu_op_type_info_0.csv and
cpu_op_detail_info_0.csv). The expected figures are read from those CSV files here.
"""

import csv
import io

import pytest
from playwright.sync_api import expect

from tests.e2e.test_dashboard import hash_route
from tests.helpers.fixtures import FIXTURES, copy_job
from tests.helpers.server import running_server

JOB = "./h_profiler_resnet"
FRAMEWORK = next((FIXTURES / "h_profiler_resnet").glob("*_ascend_ms")) / "FRAMEWORK"
WAIT = 20_000
TEXTS = {
    "en-US": {"title": "Operator Time Statistics", "profiling": "Profiling", "name": "Operator name"},
    "zh-CN": {"title": "算子耗时统计", "profiling": "性能分析", "name": "算子名称"},
}


def csv_rows(name: str) -> list[dict]:
    with open(FRAMEWORK / name, newline="") as handle:
        return list(csv.DictReader(handle))


TYPES = sorted(csv_rows("cpu_op_type_info_0.csv"), key=lambda row: -float(row["total_compute_time"]))
OPERATORS = csv_rows("cpu_op_detail_info_0.csv")


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("profiler") / "summary_base"
    copy_job("h_profiler_resnet", base / "h_profiler_resnet")
    copy_job("b_summary_ops", base / "b_summary_ops")
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def chart(page):
    element = page.get_by_test_id("types-chart")
    expect(element).to_have_attribute("data-rendered", "true", timeout=WAIT)
    return element


def series_type(page) -> str:
    return chart(page).evaluate("el => el.__miChart.getOption().series[0].type")


def table_column(page, testid: str, index: int) -> list[str]:
    table = page.get_by_test_id(testid)
    expect(table.locator(".el-table__body tr").first).to_be_visible(timeout=WAIT)
    return table.locator(".el-table__body tr").evaluate_all(
        f"trs => trs.map(tr => tr.querySelectorAll('td')[{index}].innerText.trim())"
    )


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_profiling_link_opens_the_page_with_the_top_types(new_page, server, locale):
    page = new_page(locale)
    page.goto(f"{server.url}/#/summary-manage")
    link = page.locator(f'[data-testid=summary-row][data-train-id="{JOB}"]').get_by_test_id("profiling-link")
    expect(link).to_have_text(TEXTS[locale]["profiling"])
    link.click()
    expect(page.locator("h1")).to_have_text(TEXTS[locale]["title"])
    route, query = hash_route(page.url)
    assert route == "/profiling-cpu" and query["id"] == JOB

    # The chart: the types by time, largest first, in ms as the CSV holds them.
    data = chart(page).evaluate("el => el.__miChart.getOption().series[0].data.map(d => [d.name, d.value])")
    assert len(data) == len(TYPES) == 18
    assert [name for name, _ in data] == [row["op_type"] for row in TYPES]
    assert data[0][1] == pytest.approx(float(TYPES[0]["total_compute_time"]), rel=1e-3)

    # Pie <-> bar.
    assert series_type(page) == "pie"
    page.get_by_test_id("chart-bar").click()
    page.wait_for_function("() => location.hash.includes('chart=bar')")
    assert series_type(page) == "bar"
    page.get_by_test_id("chart-pie").click()
    page.wait_for_function("() => !location.hash.includes('chart=bar')")
    assert series_type(page) == "pie"


def test_type_table_sorts_searches_and_lists_a_types_operators(page, server):
    page.goto(f"{server.url}/#/summary-manage")
    page.locator(f'[data-testid=summary-row][data-train-id="{JOB}"]').get_by_test_id("profiling-link").click()
    assert table_column(page, "type-table", 0) == [row["op_type"] for row in TYPES[:10]]
    expect(page.get_by_test_id("type-table")).to_have_attribute("data-total", "18")

    # Sorting by count, ascending.
    header = page.get_by_test_id("type-table").locator(".el-table__header th", has_text="Count")
    header.locator(".caret-wrapper .ascending").click()
    page.wait_for_function(
        "() => { const c = [...document.querySelectorAll('[data-testid=type-table] .el-table__body tr')]"
        ".map(tr => +tr.querySelectorAll('td')[2].innerText); return c.every((v, i) => !i || c[i-1] <= v) }"
    )
    counts = [int(value) for value in table_column(page, "type-table", 2)]
    assert counts == sorted(counts) and counts[0] == min(int(row["type_occurrences"]) for row in TYPES)

    # A fuzzy search over types.
    page.get_by_test_id("ops-search").fill("grad")
    page.get_by_test_id("ops-search-button").click()
    wanted = {row["op_type"] for row in TYPES if "grad" in row["op_type"].lower()}
    expect(page.get_by_test_id("type-table")).to_have_attribute("data-total", str(len(wanted)))
    assert set(table_column(page, "type-table", 0)) == wanted

    # A click on a type lists its operators.
    page.get_by_test_id("type-cell").filter(has_text="BatchNormGrad").first.click()
    expect(page.get_by_test_id("type-operators-title")).to_contain_text("BatchNormGrad")
    of_type = [row for row in OPERATORS if row["op_type"] == "BatchNormGrad"]
    expect(page.get_by_test_id("type-operators-table")).to_have_attribute("data-total", str(len(of_type)))
    assert set(table_column(page, "type-operators-table", 1)) == {"BatchNormGrad"}


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_all_operators_search_and_csv(new_page, locale, server):
    page = new_page(locale)
    page.goto(f"{server.url}/#/profiling-cpu?dir={FRAMEWORK.parent.name}&id={JOB}&tab=all")
    expect(page.get_by_test_id("all-table")).to_have_attribute("data-total", str(len(OPERATORS)), timeout=WAIT)
    longest = max(OPERATORS, key=lambda row: float(row["op_total_time(ms)"]))
    assert table_column(page, "all-table", 0)[0] == longest["op_name"]

    page.get_by_test_id("ops-search").fill("conv2dback")
    page.get_by_test_id("ops-search-button").click()
    wanted = [row for row in OPERATORS if "conv2dback" in row["op_name"].lower()]
    expect(page.get_by_test_id("all-table")).to_have_attribute("data-total", str(len(wanted)))

    with page.expect_download() as download:
        page.get_by_test_id("download-csv").click()
    text = download.value.path().read_text(encoding="utf-8-sig")
    table = list(csv.reader(io.StringIO(text)))
    assert table[0][0] == TEXTS[locale]["name"]
    assert len(table) - 1 == len(wanted)
    assert {row[6] for row in table[1:]} == {row["full_op_name"] for row in wanted}
