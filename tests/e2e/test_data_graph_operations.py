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

# Every drawn node from the source to the last operation: name, label, drawn centre x and box
# width, and the chart's width.
DRAWN_NODES = """el => {
  const chart = el.__miChart
  const data = chart.getModel().getSeriesByIndex(0).getData()
  const nodes = []
  for (let i = 0; i < data.count(); i++) {
    if (!data.getItemLayout(i)) continue  // the tree's virtual root
    const model = data.getItemModel(i)
    const [x] = data.getItemGraphicEl(i).transformCoordToGlobal(0, 0)
    const label = model.get(['label', 'formatter'])
    nodes.push({ name: data.getName(i), label, x, width: model.get('symbolSize')[0] })
  }
  return { nodes: nodes.sort((a, b) => a.x - b.x), width: chart.getWidth() }
}"""


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("datagraph") / "summary_base"
    copy_job("a_lenet_collector", base / "a_lenet_collector")
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def operations(label: str) -> list[str]:
    """The operation lines of a node's rich-text label."""
    return [line[len("{op|") : -1] for line in label.split("\n") if line.startswith("{op|")]


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
    assert [operations(node["label"]) for node in nodes if node["name"] == "Map"] == MAP_OPERATIONS
    for left, right in zip(nodes, nodes[1:], strict=False):
        assert right["x"] - right["width"] / 2 > left["x"] + left["width"] / 2, (left, right)
    assert nodes[0]["x"] - nodes[0]["width"] / 2 >= 0
    assert nodes[-1]["x"] + nodes[-1]["width"] / 2 <= drawn["width"]


def test_the_data_map_shows_each_map_s_operations(page, server):
    page.goto(f"{server.url}/#/train-manage/data-map?train_id=./a_lenet_collector")
    chart = page.locator('[data-testid="pipeline-chart"][data-rendered="true"]')
    expect(chart).to_have_count(1, timeout=WAIT)
    nodes = chart.evaluate(DRAWN_NODES)["nodes"]
    assert [operations(node["label"]) for node in nodes if node["name"] == "Map"] == MAP_OPERATIONS
