"""The training dashboard's "Reduced Precision Operator Analysis" card in a real browser, as the
original's: the first four operators of the job's reduced-precision list (reduced ones first),
then a "..." row; a click opens the operator page of the job. A job without a graph has no card.

a_lenet_collector's graph holds 130 operators, none flagged; ``mixed`` (written with our writer,
tests/e2e/test_operator_precision_page.py) holds five, a Cast flagged "reduce" and one "raise";
``scalars_only`` holds one scalar tag and no graph.
"""

import pytest
from playwright.sync_api import expect

from mindinsight.summary.writer import SummaryWriter
from tests.e2e.test_dashboard import card, dashboard_url, hash_route
from tests.e2e.test_operator_precision_page import write_mixed_precision_job
from tests.helpers.fixtures import copy_job
from tests.helpers.server import running_server

WAIT = 20_000
TEXTS = {
    "en-US": {
        "title": "Reduced Precision Operator Analysis",
        "header": ["ID", "Operator name", "Operator type", "Precision flag (up/down)", "Reduced"],
        "yes": "Yes",
        "no": "No",
    },
    "zh-CN": {
        "title": "降精度算子分析",
        "header": ["序号", "算子名称", "算子类型", "精度标记（升/降）", "是否降精度"],
        "yes": "是",
        "no": "否",
    },
}


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("precision_card") / "summary_base"
    copy_job("a_lenet_collector", base / "a_lenet_collector")
    write_mixed_precision_job(base / "mixed")
    with SummaryWriter(base / "scalars_only") as writer:
        for step in range(1, 4):
            writer.add_scalar("loss", 1.0 / step, step)
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def table_cells(page) -> dict:
    table = card(page, "operatorPrecision").get_by_test_id("precision-card-table")
    expect(table).to_be_visible(timeout=WAIT)
    return table.evaluate(
        """t => ({
            header: [...t.querySelectorAll('thead th')].map(th => th.innerText.trim()),
            rows: [...t.querySelectorAll('tbody tr')].map(tr => [...tr.cells].map(td => td.innerText.trim())),
        })"""
    )


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_card_shows_the_first_four_operators_and_opens_the_operator_page(new_page, server, locale):
    texts = TEXTS[locale]
    nodes = server.get("/datavisual/graphs/nodes/all", params={"train_id": "./a_lenet_collector"}).json()
    first = [node["name"].split("/")[-1] for node in nodes["all_nodes_detail"][:4]]
    assert len(nodes["all_nodes_detail"]) > 4

    page = new_page(locale)
    page.goto(dashboard_url(server, "./a_lenet_collector"))
    precision = card(page, "operatorPrecision")
    expect(precision.locator("h2")).to_have_text(texts["title"], timeout=WAIT)
    cells = table_cells(page)
    assert cells["header"] == texts["header"]
    # Four operators (none flagged: no flag, no yes/no), then the "..." row.
    assert [row[:2] for row in cells["rows"][:4]] == [[str(index), name] for index, name in enumerate(first, 1)]
    assert [row[3:] for row in cells["rows"][:4]] == [["", ""]] * 4
    assert cells["rows"][4][:3] == ["...", "...", "..."]
    assert len(cells["rows"]) == 5
    # Every row of the card is inside it, in view of the user.
    box = precision.bounding_box()
    last = precision.locator("tbody tr").last.bounding_box()
    assert last["y"] + last["height"] <= box["y"] + box["height"]

    # The title opens the operator page of the job.
    precision.get_by_test_id("card-link").click()
    expect(page.get_by_test_id("operator-precision-page")).to_be_visible(timeout=WAIT)
    path, query = hash_route(page.url)
    assert path == "/train-manage/operatorPrecision" and query["train_id"] == "./a_lenet_collector"
    expect(page.get_by_test_id("operator-name").first).to_have_text(first[0], timeout=WAIT)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_reduced_operators_come_first_and_a_click_on_the_card_opens_the_page(new_page, server, locale):
    texts = TEXTS[locale]
    page = new_page(locale)
    page.goto(dashboard_url(server, "./mixed"))
    cells = table_cells(page)
    # The "reduce" Cast (node 2), then the "raise" one (node 4), then the others in graph order.
    assert [row[0] for row in cells["rows"]] == ["2", "4", "1", "3", "..."]
    assert cells["rows"][0][2:] == ["Cast", "reduce", texts["yes"]]
    assert cells["rows"][1][2:] == ["Cast", "raise", texts["no"]]

    card(page, "operatorPrecision").locator("tbody tr").first.click()
    expect(page.get_by_test_id("operator-precision-page")).to_be_visible(timeout=WAIT)
    assert hash_route(page.url) == ("/train-manage/operatorPrecision", {"train_id": "./mixed"})


def test_a_job_without_a_graph_has_no_card(page, server):
    assert server.get("/datavisual/plugins", params={"train_id": "./scalars_only"}).json()["plugins"]["graph"] == []
    page.goto(dashboard_url(server, "./scalars_only"))
    expect(page.locator('[data-testid="dashboard-scalar-chart"][data-rendered="true"]')).to_have_count(1, timeout=WAIT)
    expect(card(page, "landscape")).to_be_visible(timeout=WAIT)
    expect(card(page, "operatorPrecision")).to_have_count(0)
    expect(page.locator('.card-slot[data-kind="operatorPrecision"]')).to_have_count(0)
