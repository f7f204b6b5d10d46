"""The data map in a real browser: the original's hash route draws the job's data-processing
pipeline, a click on a node shows its parameters (and a Map's tensor operations), the chosen node
lives in the URL, and the dashboard's data graph card shows a thumbnail that opens the page.

a_lenet_collector's lineage records MnistDataset -> Map[TypeCast] -> Map[Resize, Rescale,
Rescale, HwcToChw] -> Shuffle(buffer_size 1024) -> Batch(batch_size 32); b_summary_ops records
no pipeline.
"""

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.e2e.test_dashboard import hash_route
from tests.helpers.fixtures import copy_job
from tests.helpers.server import running_server

JOB = "./a_lenet_collector"
PIPELINE = ["MnistDataset", "Map", "Map", "Shuffle", "Batch"]
TEXTS = {
    "en-US": {"title": "Data Graph", "info": "Node Information", "legend": "Create", "operations": "Operations"},
    "zh-CN": {"title": "数据图", "info": "节点信息", "legend": "创建", "operations": "算子"},
}
WAIT = 20_000

# The drawn pipeline (its SVG): each box as [id, op type, text lines, border width], in drawing
# order (depth first from the last operation), and each edge as [source id, target id].
DRAWN = """el => ({
  nodes: [...el.querySelectorAll('[data-testid=pipeline-node]')].map((node) => [
    node.dataset.id,
    node.dataset.opType,
    [...node.querySelectorAll('text')].map((text) => text.textContent.trim()),
    Number(node.querySelector('rect').getAttribute('stroke-width')),
  ]),
  edges: [...el.querySelectorAll('[data-testid=pipeline-edge]')].map((edge) => [
    edge.dataset.source,
    edge.dataset.target,
  ]),
})"""


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("datamap") / "summary_base"
    copy_job("a_lenet_collector", base / "a_lenet_collector")
    copy_job("b_summary_ops", base / "b_summary_ops")
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def map_url(server, train_id: str = JOB, **extra) -> str:
    url = f"{server.url}/#/train-manage/data-map?train_id={quote(train_id, safe='./')}"
    return url + "".join(f"&{key}={value}" for key, value in extra.items())


def chain(drawing) -> list[str]:
    """Op types from the source to the last operation of a single-chain pipeline, along its edges."""
    feeds = dict(drawing["edges"])
    names = {node[0]: node[1] for node in drawing["nodes"]}
    current = next(name for name in names if name not in feeds.values())
    order = [current]
    while current in feeds:
        current = feeds[current]
        order.append(current)
    assert len(order) == len(names)
    return [names[name] for name in order]


def drawn(page):
    chart = page.locator('[data-testid="pipeline-chart"][data-rendered="true"]')
    expect(chart).to_have_count(1, timeout=WAIT)
    return chart.evaluate(DRAWN)


def click_node(page, name: str, index: int = 0):
    page.locator(f'[data-testid="pipeline-node"][data-op-type="{name}"]').nth(index).click()


def border_of(drawing, name: str) -> int:
    return next(node[3] for node in drawing["nodes"] if node[1] == name)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_data_map_draws_the_pipeline_and_shows_a_clicked_node(new_page, server, locale):
    page = new_page(locale)
    texts = TEXTS[locale]
    page.goto(map_url(server))
    expect(page.get_by_test_id("page-title")).to_have_text(texts["title"])
    expect(page.get_by_test_id("node-panel")).to_contain_text(texts["info"])
    expect(page.get_by_test_id("data-map-legend")).to_contain_text(texts["legend"])

    drawing = drawn(page)
    assert chain(drawing) == PIPELINE
    # The Maps list their tensor operations inside their box, below their type.
    maps = [node[2] for node in drawing["nodes"] if node[1] == "Map"]
    assert maps == [["Map", "Resize", "Rescale", "Rescale", "HwcToChw"], ["Map", "TypeCast"]]
    assert border_of(drawing, "Shuffle") == 1

    # A click on Shuffle: its parameters in the panel, its border marked, the node in the URL.
    click_node(page, "Shuffle")
    info = page.get_by_test_id("node-info")
    expect(info).to_have_attribute("data-op-type", "Shuffle")
    expect(info.locator('tr[data-key="buffer_size"] td')).to_have_text("1024")
    expect(info.locator('tr[data-key="reset_each_epoch"] td')).to_have_text("true")
    expect(page).to_have_url(re.compile(r"[?&]node=n\d+"))
    assert border_of(drawn(page), "Shuffle") == 3

    # A click on the second Map: its parameters and each operation with its own.
    click_node(page, "Map", 0)
    expect(info).to_have_attribute("data-op-type", "Map")
    expect(info).to_contain_text(texts["operations"])
    operations = info.get_by_test_id("node-operation")
    expect(operations).to_have_count(4)
    expect(operations.first).to_have_attribute("data-name", "Resize")
    expect(operations.first.locator('tr[data-key="size"] td')).to_have_text("32, 32")
    expect(info.locator('tr[data-key="input_columns"] td').first).to_have_text("image")
    assert border_of(drawn(page), "Shuffle") == 1


# Each drawn node's box in the chart, [op type, left, top, right, bottom], and the box of each of
# its text lines (as drawn, after the fit).
NODE_BOXES = """el => {
  const chart = el.getBoundingClientRect()
  const place = (r) => [r.left - chart.left, r.top - chart.top, r.right - chart.left, r.bottom - chart.top]
  return [...el.querySelectorAll('[data-testid=pipeline-node]')].map((node) => [
    node.dataset.opType,
    ...place(node.querySelector('rect').getBoundingClientRect()),
    [...node.querySelectorAll('text')].map((text) => place(text.getBoundingClientRect())),
  ])
}"""


def overlapping(boxes) -> list[tuple[str, str]]:
    return [
        (a[0], b[0])
        for index, a in enumerate(boxes)
        for b in boxes[index + 1 :]
        if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]
    ]


@pytest.mark.parametrize("width", [1440, 390])
def test_no_two_nodes_overlap_on_a_wide_or_a_phone_screen(new_page, server, width):
    """On a phone the levels do not fit side by side: the tree is laid out top to bottom."""
    page = new_page()
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(map_url(server))
    assert chain(drawn(page)) == PIPELINE
    chart = page.get_by_test_id("pipeline-chart")
    boxes = chart.evaluate(NODE_BOXES)
    assert len(boxes) == len(PIPELINE)
    assert overlapping(boxes) == []
    size = chart.bounding_box()
    assert all(0 <= box[1] and box[3] <= size["width"] and 0 <= box[2] and box[4] <= size["height"] for box in boxes)
    # Every label line lies inside its box.
    for name, left, top, right, bottom, lines in boxes:
        for line in lines:
            assert left <= line[0] and line[2] <= right and top <= line[1] and line[3] <= bottom, (name, line)
    centres = {name: ((left + right) / 2, (top + bottom) / 2) for name, left, top, right, bottom, _ in boxes}
    # The data flows from the dataset to the batch: left to right, or downwards on a phone.
    source, last = centres["MnistDataset"], centres["Batch"]
    assert (source[0] < last[0]) if width == 1440 else (source[1] < last[1])

    # Turned wide again, the tree goes back across.
    page.set_viewport_size({"width": 1440 if width == 390 else 390, "height": 900})
    expect(chart).to_have_attribute("data-rendered", "true")
    expect(chart).to_have_attribute("data-direction", "across" if width == 390 else "downward")
    assert overlapping(chart.evaluate(NODE_BOXES)) == []


def test_node_query_opens_the_node_and_the_list_picks_another(page, server):
    page.goto(map_url(server))
    drawn(page)
    click_node(page, "MnistDataset")
    info = page.get_by_test_id("node-info")
    expect(info).to_have_attribute("data-op-type", "MnistDataset")
    expect(info.locator('tr[data-key="dataset_dir"] td')).to_have_text("/data/mnist/train")
    link = page.url

    # The same link in a new page opens the same node.
    other = page.context.new_page()
    other.goto(link)
    expect(other.get_by_test_id("node-info")).to_have_attribute("data-op-type", "MnistDataset")
    other.close()

    # The panel's list picks a node without the mouse on the drawing (sources first).
    page.get_by_test_id("node-select").click()
    page.locator(".el-select-dropdown__item", has_text="5. Batch").click()
    expect(info).to_have_attribute("data-op-type", "Batch")
    expect(info.locator('tr[data-key="batch_size"] td')).to_have_text("32")
    assert border_of(drawn(page), "Batch") == 3

    # Download saves the drawing as a PNG named after the job.
    with page.expect_download() as download_info:
        page.get_by_test_id("data-map-download").click()
    download = download_info.value
    assert download.suggested_filename == "a_lenet_collector_map.png"
    assert open(download.path(), "rb").read(8) == b"\x89PNG\r\n\x1a\n"

    # Close leads back to the job's dashboard.
    page.get_by_test_id("page-close").click()
    expect(page).to_have_url(re.compile(r"#/train-manage/training-dashboard\?id=\./a_lenet_collector$"))


def test_the_drawing_pans_zooms_and_fits_again(page, server):
    page.goto(map_url(server))
    drawn(page)
    drawing = page.get_by_test_id("pipeline-svg")
    fitted = drawing.get_attribute("data-transform")
    box = drawing.bounding_box()
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    page.mouse.move(*centre)
    page.mouse.wheel(0, -400)  # zoom in
    expect(drawing).not_to_have_attribute("data-transform", fitted)
    zoomed = [float(value) for value in drawing.get_attribute("data-transform").split(",")]
    assert zoomed[2] > float(fitted.split(",")[2])
    # A drag on the background pans, keeping the zoom.
    page.mouse.move(box["x"] + 20, box["y"] + 20)
    page.mouse.down()
    page.mouse.move(box["x"] + 120, box["y"] + 70, steps=5)
    page.mouse.up()
    panned = [float(value) for value in drawing.get_attribute("data-transform").split(",")]
    assert panned[0] == pytest.approx(zoomed[0] + 100, abs=1) and panned[2] == zoomed[2]

    # A node in view (the middle one) is still chosen with a click; Fit to screen brings the whole
    # pipeline back.
    click_node(page, "Map", 0)
    expect(page.get_by_test_id("node-info")).to_have_attribute("data-op-type", "Map")
    page.get_by_test_id("data-map-fit").click()
    # The node's information made the page, and the drawing's box, taller: the fit keeps the first
    # scale and brings every box (one was under the node panel, zoomed in) back in view.
    page.wait_for_function(
        "([el, k]) => el.dataset.transform.endsWith(',' + k)", arg=[drawing.element_handle(), fitted.split(",")[2]]
    )
    box = drawing.bounding_box()
    for node in page.locator("[data-testid=pipeline-node] rect").all():
        inner = node.bounding_box()
        assert box["x"] <= inner["x"] and inner["x"] + inner["width"] <= box["x"] + box["width"]
        assert box["y"] <= inner["y"] and inner["y"] + inner["height"] <= box["y"] + box["height"]


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_dashboard_card_shows_the_pipeline_and_opens_the_data_map(new_page, server, locale):
    page = new_page(locale)
    page.goto(f"{server.url}/#/train-manage/training-dashboard?id={quote(JOB, safe='./')}")
    card = page.locator('[data-testid="dashboard-card"][data-kind="dataGraph"]')
    expect(card).to_have_attribute("data-state", "ready", timeout=WAIT)
    expect(card.locator("h2")).to_have_text(TEXTS[locale]["title"])
    thumbnail = card.locator('[data-testid="pipeline-chart"][data-rendered="true"]')
    expect(thumbnail).to_have_count(1, timeout=WAIT)
    assert chain(thumbnail.evaluate(DRAWN)) == PIPELINE

    card.locator(".card-body").click(position={"x": 20, "y": 20})
    expect(page).to_have_url(re.compile(r"#/train-manage/data-map\?"))
    assert hash_route(page.url) == ("/train-manage/data-map", {"train_id": JOB})
    assert chain(drawn(page)) == PIPELINE


def test_a_job_without_pipeline_says_so(page, server):
    page.goto(map_url(server, "./b_summary_ops"))
    expect(page.get_by_test_id("no-data-map")).to_be_visible(timeout=WAIT)
    expect(page.get_by_test_id("pipeline-chart")).to_have_count(0)

    page.goto(f"{server.url}/#/train-manage/training-dashboard?id=./b_summary_ops")
    card = page.locator('[data-testid="dashboard-card"][data-kind="dataGraph"]')
    expect(card).to_have_attribute("data-state", "empty", timeout=WAIT)
    expect(card.get_by_test_id("card-link")).to_have_count(0)
