"""The dashboard's data graph card lists each Map's tensor operations, as the data map does, and
its boxes fit the card without overlapping, on a wide screen and on a phone.

a_lenet_collector's pipeline: MnistDataset -> Map[TypeCast] -> Map[Resize, Rescale, Rescale,
HwcToChw] -> Shuffle -> Batch.
"""

import pytest
from playwright.sync_api import expect

from tests.helpers.fixtures import copy_job
from tests.helpers.server import running_server

WAIT = 20_000
MAP_OPERATIONS = [["TypeCast"], ["Resize", "Rescale", "Rescale", "HwcToChw"]]

# Every drawn node from the source to the last operation (by their boxes' left edges): its type,
# its text lines and its box's left and right edge in the chart; and the chart's width.
DRAWN_NODES = """el => {
  const chart = el.getBoundingClientRect()
  const nodes = [...el.querySelectorAll('[data-testid=pipeline-node]')].map((node) => {
    const box = node.querySelector('rect').getBoundingClientRect()
    const lines = [...node.querySelectorAll('text')].map((text) => text.textContent.trim())
    return { name: node.dataset.opType, lines, left: box.left - chart.left, right: box.right - chart.left }
  })
  return { nodes: nodes.sort((a, b) => a.left - b.left), width: chart.width }
}"""


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("datagraph") / "summary_base"
    copy_job("a_lenet_collector", base / "a_lenet_collector")
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def operations(node: dict) -> list[str]:
    """The operation lines of a node's box (below its type)."""
    return node["lines"][1:]


@pytest.mark.parametrize(("locale", "width"), [("en-US", 1440), ("zh-CN", 390)])
def test_the_card_shows_each_map_s_operations_without_overlap(new_page, server, locale, width):
    page = new_page(locale)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{server.url}/#/train-manage/training-dashboard?id=./a_lenet_collector")
    card = page.locator('[data-testid="dashboard-card"][data-kind="dataGraph"]')
    thumbnail = card.locator('[data-testid="pipeline-chart"][data-rendered="true"]')
    expect(thumbnail).to_have_count(1, timeout=WAIT)
    drawn = thumbnail.evaluate(DRAWN_NODES)
    nodes = drawn["nodes"]

    assert [node["name"] for node in nodes] == ["MnistDataset", "Map", "Map", "Shuffle", "Batch"]
    assert [operations(node) for node in nodes if node["name"] == "Map"] == MAP_OPERATIONS
    for left, right in zip(nodes, nodes[1:], strict=False):
        assert right["left"] > left["right"], (left, right)
    assert nodes[0]["left"] >= 0
    assert nodes[-1]["right"] <= drawn["width"]


def test_the_data_map_shows_each_map_s_operations(page, server):
    page.goto(f"{server.url}/#/train-manage/data-map?train_id=./a_lenet_collector")
    chart = page.locator('[data-testid="pipeline-chart"][data-rendered="true"]')
    expect(chart).to_have_count(1, timeout=WAIT)
    nodes = chart.evaluate(DRAWN_NODES)["nodes"]
    assert [operations(node) for node in nodes if node["name"] == "Map"] == MAP_OPERATIONS
