"""The computational graph page in a real browser: ELK lays the graph out in a web worker, the page
draws it in SVG. a_lenet_collector holds LeNet's graph in its summary file, f_save_graphs four .pb
graph files written by ``save_graphs``, h_resnet50_graph the graph of ResNet-50 (1,612 operators).
"""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_dashboard import hash_route
from tests.helpers.fixtures import copy_job
from tests.helpers.server import running_server

LENET = "./a_lenet_collector"
WAIT = 20_000
CONV = "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/Conv2D-op0"
TEXTS = {
    "en-US": {"title": "Computational Graph", "type": "Type"},
    "zh-CN": {"title": "计算图", "type": "类型"},
}


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("graph") / "summary_base"
    for job in ("a_lenet_collector", "f_save_graphs", "h_resnet50_graph"):
        copy_job(job, base / job)
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def node(page, name: str):
    return page.locator(f'[data-testid=graph-node][data-name="{name}"]')


def drawn_names(page) -> set[str]:
    return set(page.get_by_test_id("graph-node").evaluate_all("els => els.map(e => e.dataset.name)"))


def transform(page) -> str:
    return page.get_by_test_id("graph-svg").get_attribute("data-transform")


def open_graph(page, server, train_id: str = LENET, extra: str = ""):
    page.goto(f"{server.url}/#/train-manage/graph?train_id={train_id}{extra}")
    expect(page.get_by_test_id("graph-node").first).to_be_visible(timeout=WAIT)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_top_level_and_expanding_a_scope(new_page, server, locale):
    page = new_page(locale)
    open_graph(page, server, extra="&summaryPath=./a_lenet_collector")
    expect(page.get_by_test_id("page-title")).to_have_text(TEXTS[locale]["title"])
    assert drawn_names(page) == {"Default", "Gradients"}
    expect(page.get_by_test_id("graph-edge").first).to_be_attached()

    node(page, "Default").dblclick()
    expect(node(page, "Default")).to_have_attribute("data-expanded", "true", timeout=WAIT)
    level = server.get("/datavisual/graphs/nodes", params={"train_id": LENET, "name": "Default"}).json()["nodes"]
    assert {item["name"] for item in level} <= drawn_names(page)
    kinds = set(page.get_by_test_id("graph-node").evaluate_all("els => els.map(e => e.dataset.kind)"))
    assert {"scope", "operator", "const"} <= kinds

    # Control edges are dashed, data edges solid.
    types = set(page.get_by_test_id("graph-edge").evaluate_all("els => els.map(e => e.dataset.type)"))
    assert "data" in types
    dashed = page.locator('[data-testid=graph-edge][data-type="control"]')
    if dashed.count():
        assert dashed.first.evaluate("el => getComputedStyle(el).strokeDasharray") != "none"

    # A second double click (on its title bar: its nodes fill the rest) closes it again.
    node(page, "Default").dblclick(position={"x": 30, "y": 12})
    expect(node(page, "Default")).to_have_attribute("data-expanded", "false", timeout=WAIT)
    assert drawn_names(page) == {"Default", "Gradients"}


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_search_opens_the_scopes_and_selects_the_node(new_page, server, locale):
    page = new_page(locale)
    open_graph(page, server)
    before = transform(page)
    page.get_by_test_id("graph-search").fill("Conv2D-op0")
    page.locator(".graph-search-popper li", has_text=CONV).first.click()
    expect(node(page, CONV)).to_be_visible(timeout=WAIT)
    assert "selected" in node(page, CONV).get_attribute("class")
    expect(page.get_by_test_id("node-info-name")).to_have_text(CONV)
    expect(page.get_by_test_id("node-info-type")).to_have_text("Conv2D")
    expect(page.get_by_test_id("node-info")).to_contain_text(TEXTS[locale]["type"])
    expect(page.get_by_test_id("node-info-inputs")).to_be_visible()
    assert hash_route(page.url)[1]["node"] == CONV
    for scope in ("Default", "Default/network-WithLossCell", "Default/network-WithLossCell/_backbone-LeNet5"):
        expect(node(page, scope)).to_have_attribute("data-expanded", "true")
    # The view moved to the node.
    page.wait_for_function(f"() => document.querySelector('[data-testid=graph-svg]').dataset.transform !== '{before}'")


def test_file_select_and_optimized_view(page, server):
    open_graph(page, server, "./f_save_graphs")
    first = hash_route(page.url)[1].get("tag")
    assert first is None  # the first file by default
    page.get_by_test_id("graph-file-select").click()
    page.locator(".el-select-dropdown__item:visible", has_text="ms_output_before_opt_0.pb").click()
    page.wait_for_function("() => location.hash.includes('tag=ms_output_before_opt_0.pb')")
    expect(node(page, "Gradients")).to_be_visible(timeout=WAIT)
    assert drawn_names(page) == {"Default", "Gradients"}

    # The readability-optimized view folds the gradient part away.
    page.get_by_test_id("graph-optimized").click()
    page.wait_for_function("() => location.hash.includes('optimized=1')")
    expect(node(page, "Gradients")).to_have_count(0, timeout=WAIT)
    expect(node(page, "Default")).to_be_visible(timeout=WAIT)
    assert drawn_names(page) == {"Default"}


def minimap_holds_every_node(page) -> bool:
    minimap = page.get_by_test_id("graph-minimap").bounding_box()
    boxes = page.locator("[data-testid=graph-minimap] .mini-node").evaluate_all(
        "els => els.map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom] })"
    )
    right, bottom = minimap["x"] + minimap["width"], minimap["y"] + minimap["height"]
    return bool(boxes) and all(
        minimap["x"] - 0.5 <= left and minimap["y"] - 0.5 <= top and r <= right + 0.5 and b <= bottom + 0.5
        for left, top, r, b in boxes
    )


def test_minimap_moves_the_view(page, server):
    open_graph(page, server)
    # The top level (taller than wide) and the opened scope (wider than tall) fit in it whole.
    expect(page.get_by_test_id("graph-node")).to_have_count(2)
    assert minimap_holds_every_node(page)
    node(page, "Default").dblclick()
    expect(node(page, "Default")).to_have_attribute("data-expanded", "true", timeout=WAIT)
    assert minimap_holds_every_node(page)
    before = transform(page)
    minimap = page.get_by_test_id("graph-minimap")
    box = minimap.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.9, box["y"] + box["height"] * 0.9)
    page.wait_for_function(f"() => document.querySelector('[data-testid=graph-svg]').dataset.transform !== '{before}'")
    after = [float(value) for value in transform(page).split(",")]
    assert after[2] == pytest.approx(float(before.split(",")[2]))  # same zoom, another place


def test_resnet50_expands_a_scope(page, server):
    open_graph(page, server, "./h_resnet50_graph")
    top = drawn_names(page)
    scope = next(name for name in sorted(top) if node(page, name).get_attribute("data-kind") == "scope")
    node(page, scope).dblclick()
    expect(node(page, scope)).to_have_attribute("data-expanded", "true", timeout=WAIT)
    assert len(drawn_names(page)) > len(top)


def test_dashboard_card_opens_the_graph(page, server):
    page.goto(f"{server.url}/#/train-manage/training-dashboard?id={LENET}")
    card = page.locator('[data-testid=dashboard-card][data-kind="graph"]')
    expect(card).to_have_attribute("data-state", "ready", timeout=WAIT)
    expect(card.locator("[data-testid=graph-node]")).to_have_count(2)
    card.get_by_test_id("card-link").click()
    expect(page.get_by_test_id("graph-page")).to_be_visible()
    assert hash_route(page.url) == ("/train-manage/graph", {"train_id": LENET})
