"""The model lineage page on 1,000 jobs with lineage (the real files of h_lineage_30_runs, linked
into many job directories): the table asks the server for one page at a time (page size rows,
sorted on the server when a column header is clicked), the chart draws the 100 most recently
updated runs only and says so (their first rows are the table's first pages, unsorted)."""

import json

import pytest
from playwright.sync_api import expect

from tests.e2e.test_lineage_pages import WAIT, chart_rows, shown_paths
from tests.helpers.many_lineage_jobs import link_lineage_jobs
from tests.helpers.server import running_server

JOBS = 1000
CHART_RUNS = 100  # useLineage.js CHART_RUNS
CAPPED = {
    "en-US": "The chart draws the 100 most recently updated of 1000 trainings",
    "zh-CN": "图中绘制 1000 个训练中最近更新的 100 个",
}


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("many_lineage") / "summary_base"
    link_lineage_jobs(base, JOBS)
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def lineage_bodies(page) -> list[dict]:
    """The bodies of the page's lineage searches, as they are sent."""
    bodies = []
    page.on(
        "request",
        lambda request: (
            bodies.append(json.loads(request.post_data))
            if request.method == "POST" and request.url.endswith("/lineagemgr/lineages")
            else None
        ),
    )
    return bodies


def server_page(server, **keys) -> list[str]:
    body = {"lineage_type": {"in": ["model"]}, **keys}
    response = server.post("/lineagemgr/lineages", json=body)
    assert response.status_code == 200, response.text
    return [item["summary_dir"] for item in response.json()["object"]]


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_table_pages_and_sorts_on_the_server_and_the_chart_draws_100_runs(new_page, server, locale):
    page = new_page(locale)
    bodies = lineage_bodies(page)
    page.goto(f"{server.url}/#/model-traceback")
    assert chart_rows(page) == CHART_RUNS
    expect(page.get_by_test_id("chart-capped")).to_contain_text(CAPPED[locale])
    expect(page.get_by_test_id("row-count")).to_have_attribute("data-shown", str(JOBS), timeout=WAIT)
    expect(page.get_by_test_id("row-path")).to_have_count(10)
    assert shown_paths(page) == server_page(server, limit=10, offset=0)
    # No search asks for every row: the chart's 100 (the first page unsorted is theirs), then
    # pages of the table's page size.
    assert bodies and all(0 < body.get("limit", 0) <= CHART_RUNS for body in bodies)

    # A column header sorts on the server, over all 1,000 runs.
    bodies.clear()
    header = page.locator(".el-table__header th", has_text="[M]Loss")
    header.locator(".caret-wrapper .descending").click()
    wanted = server_page(server, limit=10, offset=0, sorted_name="metric/Loss", sorted_type="descending")
    expect(page.get_by_test_id("row-path").first).to_have_text(wanted[0], timeout=WAIT)
    assert shown_paths(page) == wanted
    sorted_bodies = [body for body in bodies if body.get("sorted_name") == "metric/Loss"]
    assert sorted_bodies and sorted_bodies[-1]["sorted_type"] == "descending" and sorted_bodies[-1]["limit"] == 10

    # The next page is the server's next page of that sort.
    bodies.clear()
    page.get_by_test_id("lineage-pager").locator(".btn-next").click()
    wanted = server_page(server, limit=10, offset=1, sorted_name="metric/Loss", sorted_type="descending")
    expect(page.get_by_test_id("row-path").first).to_have_text(wanted[0], timeout=WAIT)
    assert shown_paths(page) == wanted
    assert [body["offset"] for body in bodies if body.get("limit") == 10] == [1]


def test_a_query_narrows_the_pages_on_the_server(page, server):
    bodies = lineage_bodies(page)
    query = 'optimizer == "Adam"'
    # Page 12 lies past the chart's 100 rows: the server answers it.
    page.goto(f"{server.url}/#/model-traceback?page=12&q=" + "optimizer%20%3D%3D%20%22Adam%22")
    chart_rows(page)
    answer = server.post(
        "/lineagemgr/lineages",
        json={"lineage_type": {"in": ["model"]}, "query": query, "limit": 10, "offset": 11},
    ).json()
    assert CHART_RUNS < answer["count"] < JOBS
    expect(page.get_by_test_id("row-count")).to_have_attribute("data-shown", str(answer["count"]), timeout=WAIT)
    expect(page.get_by_test_id("row-path").first).to_have_text(answer["object"][0]["summary_dir"], timeout=WAIT)
    assert shown_paths(page) == [item["summary_dir"] for item in answer["object"]]
    assert bodies and all(body.get("query") == query and 0 < body.get("limit", 0) <= CHART_RUNS for body in bodies)
    assert {"limit": 10, "offset": 11} in [{key: body[key] for key in ("limit", "offset")} for body in bodies]


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_dataset_page_draws_100_runs_and_pages_the_rest_on_the_server(new_page, server, locale):
    page = new_page(locale)
    bodies = lineage_bodies(page)
    page.goto(f"{server.url}/#/data-traceback?page=20")
    assert chart_rows(page) == CHART_RUNS
    expect(page.get_by_test_id("chart-capped")).to_contain_text(CAPPED[locale])
    wanted = server_page(server, limit=10, offset=19)
    expect(page.get_by_test_id("row-path").first).to_have_text(wanted[0], timeout=WAIT)
    assert shown_paths(page) == wanted
    assert bodies and all(0 < body.get("limit", 0) <= CHART_RUNS for body in bodies)
