"""The graph page's reading aids in a real browser: edge labels and their hover, the selected
node's edges and neighbours, the scope tree, full screen, SVG/PNG download, the dashboard card's
order and labels, and readable node labels in the dark theme. a_lenet_collector holds LeNet's graph.
"""

import re
import xml.etree.ElementTree as ElementTree

import pytest
from playwright.sync_api import expect

from tests.e2e.test_graph_page import CONV, LENET, WAIT, node, open_graph
from tests.e2e.test_readability import contrast
from tests.helpers.fixtures import copy_job
from tests.helpers.server import running_server

TEXTS = {
    "en-US": {
        "tree": "Scopes",
        "fullScreen": "Full screen",
        "exitFullScreen": "Exit full screen",
        "dark": "Dark Theme",
    },
    "zh-CN": {"tree": "命名空间", "fullScreen": "全屏", "exitFullScreen": "退出全屏", "dark": "深色主题"},
}


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("graph_views") / "summary_base"
    copy_job("a_lenet_collector", base / "a_lenet_collector")
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def level(server, scope: str = "") -> dict:
    params = {"train_id": LENET, **({"name": scope} if scope else {})}
    answer = server.get("/datavisual/graphs/nodes", params=params).json()
    return {item["name"]: item for item in answer["nodes"]}


def reopen(page, server, extra: str):
    """The graph page anew (a change of the address's hash alone would not reload it)."""
    page.goto("about:blank")
    open_graph(page, server, extra=extra)


def edge_label(page, source: str, target: str, within=None):
    where = within or page
    return where.locator(f'[data-testid=graph-edge-label][data-source="{source}"][data-target="{target}"]')


def hex_color(css: str) -> str:
    """'rgb(31, 45, 61)' as '#1f2d3d' (for the contrast helper)."""
    r, g, b = (int(part) for part in re.findall(r"\d+", css)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def test_edges_are_labelled_and_list_their_tensors_on_hover(page, server):
    top = level(server)
    into_gradients = [name for name in top["Gradients"]["input"] if name.startswith("Default/")]
    into_default = [name for name in top["Default"]["input"] if name.startswith("Gradients/")]
    open_graph(page, server)
    expect(edge_label(page, "Default", "Gradients")).to_have_text(f"{len(into_gradients)}tensors")
    expect(edge_label(page, "Gradients", "Default")).to_have_text(f"{len(into_default)}tensors")

    # Hovering an edge lists the tensors it stands for, with their types and shapes.
    page.locator('[data-testid=graph-edge][data-source="Default"][data-target="Gradients"]').hover(force=True)
    tip = page.get_by_test_id("graph-edge-tooltip")
    expect(tip).to_be_visible()
    first = top["Gradients"]["input"][into_gradients[0]]
    expect(tip).to_contain_text(into_gradients[0])
    expect(tip).to_contain_text(first["data_type"])
    expect(tip).to_contain_text(str(first["shape"]).replace(" ", ""))
    page.mouse.move(5, 5)
    expect(tip).to_have_count(0)

    # An edge of one tensor is labelled with its type and shape.
    reopen(page, server, f"&node={CONV}")
    scope = CONV.rsplit("/", 1)[0]
    inputs = level(server, scope)[CONV]["input"]
    source = f"{scope}/inputs0"
    expected = f"{inputs[source]['data_type']} {'×'.join(str(dim) for dim in inputs[source]['shape'][0])}"
    expect(edge_label(page, source, CONV)).to_have_text(expected, timeout=WAIT)


def test_the_selected_node_shows_its_inputs_and_outputs(page, server):
    open_graph(page, server, extra=f"&node={CONV}")
    expect(node(page, CONV)).to_have_class(re.compile("selected"), timeout=WAIT)
    edges = page.get_by_test_id("graph-edge").evaluate_all(
        "els => els.map(e => ({source: e.dataset.source, target: e.dataset.target, linked: e.dataset.linked,"
        " stroke: getComputedStyle(e).stroke}))"
    )
    touching = [edge for edge in edges if CONV in (edge["source"], edge["target"])]
    others = [edge for edge in edges if CONV not in (edge["source"], edge["target"])]
    assert touching and others
    assert all(edge["linked"] == "true" for edge in touching)
    assert all(edge["linked"] == "false" for edge in others)
    assert {edge["stroke"] for edge in touching}.isdisjoint({edge["stroke"] for edge in others})
    # The nodes at the other end are marked, and no other.
    neighbours = {edge["target"] if edge["source"] == CONV else edge["source"] for edge in touching}
    marked = set(
        page.locator('[data-testid=graph-node][data-linked="true"]').evaluate_all("els => els.map(e => e.dataset.name)")
    )
    assert marked == neighbours

    # Selecting another node moves the highlight.
    page.get_by_test_id("graph-fit").click()
    node(page, "Gradients").click()
    expect(node(page, "Gradients")).to_have_class(re.compile("selected"), timeout=WAIT)
    expect(page.locator('[data-testid=graph-edge][data-linked="true"]').first).to_be_attached()
    linked = page.locator('[data-testid=graph-edge][data-linked="true"]').evaluate_all(
        "els => els.map(e => [e.dataset.source, e.dataset.target])"
    )
    assert linked and all("Gradients" in pair for pair in linked)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_scope_tree_opens_scopes_and_follows_the_selection(new_page, server, locale):
    page = new_page(locale)
    open_graph(page, server)
    tree = page.get_by_test_id("graph-tree")
    expect(tree).to_contain_text(TEXTS[locale]["tree"])
    rows = tree.get_by_test_id("graph-tree-node")
    expect(rows).to_have_count(2)
    assert rows.evaluate_all("els => els.map(e => e.dataset.name)") == ["Default", "Gradients"]

    # A click on a scope opens it in the tree and in the drawing, and selects it.
    tree.locator('[data-testid=graph-tree-node][data-name="Default"]').click()
    expect(node(page, "Default")).to_have_attribute("data-expanded", "true", timeout=WAIT)
    expect(node(page, "Default")).to_have_class(re.compile("selected"))
    expect(page.get_by_test_id("node-info-name")).to_have_text("Default")
    children = level(server, "Default")
    for name in children:
        expect(tree.locator(f'[data-testid=graph-tree-node][data-name="{name}"]')).to_be_visible()

    # A node selected elsewhere (here, the search) is opened down to and marked in the tree.
    page.get_by_test_id("graph-search").fill("Conv2D-op0")
    page.locator(".graph-search-popper li", has_text=CONV).first.click()
    current = tree.locator(".el-tree-node.is-current > .el-tree-node__content [data-testid=graph-tree-node]")
    expect(current).to_have_attribute("data-name", CONV, timeout=WAIT)
    expect(current).to_be_in_viewport()

    # So is a node named in the address when the page opens.
    reopen(page, server, f"&node={CONV}")
    current = page.locator(".el-tree-node.is-current > .el-tree-node__content [data-testid=graph-tree-node]")
    expect(current).to_have_attribute("data-name", CONV, timeout=WAIT)
    expect(current).to_be_in_viewport()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_full_screen_and_escape(new_page, server, locale):
    page = new_page(locale)
    open_graph(page, server)
    box = page.get_by_test_id("graph-canvas-box")
    button = page.get_by_test_id("graph-fullscreen")
    expect(button).to_have_text(TEXTS[locale]["fullScreen"])
    button.click()
    expect(box).to_have_attribute("data-fullscreen", "true")
    expect(button).to_have_text(TEXTS[locale]["exitFullScreen"])
    size = box.bounding_box()
    assert (size["width"], size["height"]) == (1440, 900)
    page.keyboard.press("Escape")
    expect(box).to_have_attribute("data-fullscreen", "false")
    assert box.bounding_box()["width"] < 1440


def test_download_as_svg_and_png(page, server):
    open_graph(page, server)
    with page.expect_download() as download_info:
        page.get_by_test_id("graph-download-svg").click()
    download = download_info.value
    assert download.suggested_filename == "a_lenet_collector_graph.svg"
    text = open(download.path(), encoding="utf-8").read()
    root = ElementTree.fromstring(text)  # a well-formed file of its own
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "Default" in text and "Gradients" in text and "tensors" in text
    assert "fill:" in text  # the page's styles go along: the file has no stylesheet
    width, height = float(root.get("width")), float(root.get("height"))
    assert width > 100 and height > 100

    with page.expect_download() as download_info:
        page.get_by_test_id("graph-download-png").click()
    download = download_info.value
    assert download.suggested_filename == "a_lenet_collector_graph.png"
    data = open(download.path(), "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    png_width, png_height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (png_width, png_height) == (round(width * 2), round(height * 2))


def test_dashboard_card_has_default_on_top_and_labelled_edges(page, server):
    page.goto(f"{server.url}/#/train-manage/training-dashboard?id={LENET}")
    card = page.locator('[data-testid=dashboard-card][data-kind="graph"]')
    expect(card).to_have_attribute("data-state", "ready", timeout=WAIT)
    default = card.locator('[data-testid=graph-node][data-name="Default"]').bounding_box()
    gradients = card.locator('[data-testid=graph-node][data-name="Gradients"]').bounding_box()
    assert default["y"] + default["height"] <= gradients["y"]
    expect(edge_label(page, "Default", "Gradients", card)).to_have_text(re.compile(r"^\d+tensors$"))
    expect(edge_label(page, "Gradients", "Default", card)).to_have_text(re.compile(r"^\d+tensors$"))


def label_contrasts(page, within) -> list[float]:
    pairs = (
        page.locator(within)
        .locator('[data-testid=graph-node][data-expanded="false"]')
        .evaluate_all(
            "els => els.map(e => [getComputedStyle(e.querySelector('rect')).fill,"
            " getComputedStyle(e.querySelector('text')).fill])"
        )
    )
    assert pairs
    return [contrast(hex_color(box), hex_color(text)) for box, text in pairs]


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_node_labels_are_readable_in_the_dark_theme(new_page, server, locale):
    page = new_page(locale)
    page.goto(f"{server.url}/#/train-manage/training-dashboard?id={LENET}")
    page.get_by_test_id("theme-select").select_option(label=TEXTS[locale]["dark"])
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    card = '[data-testid=dashboard-card][data-kind="graph"]'
    expect(page.locator(card)).to_have_attribute("data-state", "ready", timeout=WAIT)
    assert min(label_contrasts(page, card)) >= 4.5

    reopen(page, server, f"&node={CONV}")
    expect(node(page, CONV)).to_be_visible(timeout=WAIT)
    assert min(label_contrasts(page, "[data-testid=graph-svg]")) >= 4.5
