"""The loss landscape pages in a real browser (echarts-gl draws with WebGL, which headless Chromium
provides in software), on d_landscape_epoch: two PCA landscapes along the training track over
epochs 1-4 and 5-8 (5 x 5 grids), and one random-direction final landscape.
"""

import io
import re
import shutil
from urllib.parse import urlsplit

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.e2e.conftest import TIMEOUT_MS
from tests.e2e.test_dashboard import hash_route
from tests.helpers.fixtures import FIXTURES, MULTI_RUNS, copy_job
from tests.helpers.server import running_server

JOB = "./d_landscape_epoch"
WAIT = 20_000
TEXTS = {
    "en-US": {"title": "Loss Function Multidimensional Analysis", "compare": "Loss Function Comparison"},
    "zh-CN": {"title": "损失函数多维分析", "compare": "损失函数对比"},
}


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("landscape") / "summary_base"
    copy_job("d_landscape_epoch", base / "d_landscape_epoch")
    copy_job("d_landscape_epoch", base / "d_landscape_copy")
    copy_job("b_summary_ops", base / "b_summary_ops")
    # The landscape job evaluated as well: run3's evaluation lineage (same network and optimizer)
    # adds the metrics Accuracy, Loss (16 significant digits), Precision and Recall.
    evaluated = copy_job("d_landscape_epoch", base / "d_landscape_evaluated")
    shutil.copy(sorted((FIXTURES / "c_multi_runs" / MULTI_RUNS[2]).glob("*_lineage"))[-1], evaluated)
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def option(page, testid: str, expression: str):
    chart = page.get_by_test_id(testid).first
    expect(chart).to_have_attribute("data-rendered", "true", timeout=WAIT)
    return chart.evaluate(f"el => {{ const option = el.__miChart.getOption(); return {expression} }}")


def series_types(page, testid: str = "landscape-chart") -> list[str]:
    return option(page, testid, "option.series.map(s => s.type)")


def landscape(server, interval_index: int = 0) -> dict:
    intervals = server.get("/datavisual/landscape/intervals", params={"train_id": JOB}).json()["intervals"]
    params = {"train_id": JOB, "type": "interval", "interval_id": intervals[interval_index]["id"]}
    return server.get("/datavisual/landscape/landscapes", params=params).json()["landscapes"][0]


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_three_forms_of_the_same_landscape_with_the_track(new_page, server, locale):
    page = new_page(locale)
    expected = landscape(server)
    page.goto(f"{server.url}/#/train-manage/loss-analysis?train_id={JOB}")
    expect(page.get_by_test_id("page-title")).to_have_text(TEXTS[locale]["title"])

    # 3-D first: the surface over the 5 x 5 grid, the track and its two ends.
    types = series_types(page)
    assert types[0] == "surface" and "line3D" in types and "scatter3D" in types
    assert option(page, "landscape-chart", "option.series[0].data.length") == 25
    track = option(page, "landscape-chart", "option.series.find(s => s.type === 'line3D').data")
    assert [point[:2] for point in track] == [list(xy) for xy in zip(expected["path"]["x"], expected["path"]["y"])]

    # Isoline map: one line per contour level (10 by default) and the track with start and end marks.
    page.get_by_test_id("form-isoline").click()
    page.wait_for_function("() => location.hash.includes('form=isoline')")
    types = series_types(page)
    assert types.count("line") == 10 + 1
    marks = option(page, "landscape-chart", "option.series.find(s => s.id === 'track').markPoint.data.map(d => d.name)")
    assert len(marks) == 2
    assert option(page, "landscape-chart", "option.series.find(s => s.id === 'track').data.length") == 4

    # Topographic map: filled bands.
    page.get_by_test_id("form-topographic").click()
    page.wait_for_function("() => location.hash.includes('form=topographic')")
    assert "custom" in series_types(page)


def test_settings_and_interval_change_the_drawing(page, server):
    page.goto(f"{server.url}/#/train-manage/loss-analysis?train_id={JOB}&form=isoline")
    assert series_types(page).count("line") == 11
    page.get_by_test_id("setting-contours").click()
    page.locator(".el-select-dropdown__item:visible", has_text="5").first.click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=landscape-chart]').__miChart.getOption()"
        ".series.filter(s => s.type === 'line').length === 6"
    )

    page.get_by_test_id("form-3d").click()
    before = option(page, "landscape-chart", "option.series[0].itemStyle.opacity")
    slider = page.get_by_test_id("setting-opacity").locator(".el-slider__runway")
    box = slider.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.2, box["y"] + box["height"] / 2)
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=landscape-chart]').__miChart.getOption()"
        f".series[0].itemStyle.opacity !== {before}"
    )
    assert option(page, "landscape-chart", "option.series[0].itemStyle.opacity") < before

    # The second interval (epochs 5-8): another track, and the interval in the URL.
    second = landscape(server, 1)
    page.get_by_test_id("interval-select").click()
    page.locator(".el-select-dropdown__item:visible", has_text="5-8").click()
    page.wait_for_function("() => location.hash.includes('interval=')")
    page.wait_for_function(
        f"""() => {{
            const s = document.querySelector('[data-testid=landscape-chart]').__miChart.getOption()
                .series.find(s => s.type === 'line3D')
            return s && Math.abs(s.data[0][0] - {second["path"]["x"][0]}) < 1e-9
        }}"""
    )


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_comparison_tile_overlay_and_placeholder(new_page, server, locale):
    page = new_page(locale)
    runs = f"{JOB},./d_landscape_copy,./b_summary_ops"
    page.goto(f"{server.url}/#/compare-analysis/loss?runs={runs}")
    expect(page.locator("h1")).to_have_text(TEXTS[locale]["compare"])
    # Tile: a chart for each training with a final landscape, a how-to for the one without.
    expect(page.get_by_test_id("tile-chart")).to_have_count(2, timeout=WAIT)
    expect(page.get_by_test_id("no-landscape-run")).to_have_count(1)
    expect(page.get_by_test_id("no-landscape-run")).to_contain_text("SummaryCollector")
    assert series_types(page, "tile-chart")[0] == "surface"

    # Overlay: both surfaces in one 3-D grid.
    page.get_by_test_id("mode-overlay").click()
    page.wait_for_function("() => location.hash.includes('mode=overlay')")
    assert series_types(page, "overlay-chart").count("surface") == 2
    expect(page.get_by_test_id("tile-chart")).to_have_count(0)

    # The isoline form tiles again.
    page.get_by_test_id("compare-form-isoline").click()
    expect(page.get_by_test_id("tile-chart")).to_have_count(2)
    assert "line" in series_types(page, "tile-chart")


def test_dashboard_card_opens_the_loss_analysis(page, server):
    page.goto(f"{server.url}/#/train-manage/training-dashboard?id={JOB}")
    card = page.locator('[data-testid=dashboard-card][data-kind="landscape"]')
    expect(card).to_have_attribute("data-state", "ready", timeout=WAIT)
    assert series_types(page, "landscape-card-chart")[0] == "surface"
    card.get_by_test_id("card-link").click()
    expect(page.get_by_test_id("loss-analysis-page")).to_be_visible()
    route, query = hash_route(page.url)
    assert route == "/train-manage/loss-analysis" and query["train_id"] == JOB


def test_opening_the_loss_comparison_sends_each_request_once(page, server):
    page.add_init_script("localStorage.setItem('isTimeReload', 'false')")  # no auto refresh mid-count
    sent = []
    page.on("request", lambda request: "/datavisual/" in request.url and sent.append(urlsplit(request.url).path))
    page.goto(f"{server.url}/#/compare-analysis/loss?runs={JOB},./d_landscape_copy")
    expect(page.get_by_test_id("tile-chart")).to_have_count(2, timeout=WAIT)
    page.wait_for_timeout(1500)  # anything late (a second round) would go out within this time
    paths = [path.rsplit("/datavisual/", 1)[1] for path in sent]
    assert sorted(paths) == ["landscape/landscapes", "train-jobs"], paths


# Each 3-D chart at a desktop and a phone width: (route, chart test id).
THREE_D_CHARTS = [
    (f"/#/train-manage/loss-analysis?train_id={JOB}", "landscape-chart"),
    (f"/#/compare-analysis/loss?runs={JOB},./d_landscape_copy", "tile-chart"),
    (f"/#/compare-analysis/loss?runs={JOB},./d_landscape_copy&mode=overlay", "overlay-chart"),
]


def ink_at_edges(png: bytes, strip: int = 3) -> dict[str, int]:
    """Pixels that differ from the background (the image's most common colour) in a strip along
    each edge of a chart's screenshot: anything drawn there runs out of the panel."""
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
    colours, counts = np.unique(pixels.reshape(-1, 3), axis=0, return_counts=True)
    inked = np.abs(pixels - colours[counts.argmax()]).max(axis=2) > 60
    edges = {"left": inked[:, :strip], "right": inked[:, -strip:], "top": inked[:strip], "bottom": inked[-strip:]}
    return {edge: int(strip_inked.sum()) for edge, strip_inked in edges.items()}


@pytest.mark.parametrize("viewport", [(1440, 900), (390, 844)], ids=["desktop", "phone"])
@pytest.mark.parametrize("route, testid", THREE_D_CHARTS, ids=["analysis", "tile", "overlay"])
def test_3d_axes_titles_and_labels_stay_inside_the_panel(browser, server, viewport, route, testid):
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(server.url + route)
        chart = page.get_by_test_id(testid).first
        expect(chart).to_have_attribute("data-rendered", "true", timeout=WAIT)
        chart.scroll_into_view_if_needed()
        page.wait_for_timeout(500)  # echarts-gl draws its labels a frame after 'finished'
        assert ink_at_edges(chart.screenshot()) == {"left": 0, "right": 0, "top": 0, "bottom": 0}
        # Labels are drawn into textures cut to their line box: a line box of the font size cut
        # the tops of the glyphs ("loss value" read "ioss vaiue").
        styles = chart.evaluate(
            """el => ['xAxis3D', 'yAxis3D', 'zAxis3D'].map(key => {
                const axis = el.__miChart.getOption()[key][0]
                return [axis.axisLabel, axis.nameTextStyle]
            })"""
        )
        for label, name in styles:
            assert label["lineHeight"] >= 1.5 * label["fontSize"] and name["lineHeight"] >= 1.5 * name["fontSize"]
    finally:
        context.close()


def significant_digits(text: str) -> int:
    """Most significant digits of any number in ``text``."""
    numbers = re.findall(r"\d[\d.]*(?:e[-+]?\d+)?", text)
    return max((len(number.split("e")[0].replace(".", "").lstrip("0")) for number in numbers), default=0)


@pytest.mark.parametrize(
    "route",
    [
        "/#/train-manage/loss-analysis?train_id=./d_landscape_evaluated",
        "/#/compare-analysis/loss?runs=./d_landscape_evaluated",
    ],
    ids=["analysis", "comparison"],
)
def test_training_information_names_each_value_once_in_readable_numbers(page, server, route):
    page.goto(server.url + route)
    info = page.get_by_test_id("landscape-info").first
    expect(info).to_contain_text("Accuracy", timeout=WAIT)
    labels = info.locator("dt").all_inner_texts()
    values = info.locator("dd").all_inner_texts()
    assert len(labels) == len(set(labels)), labels
    # The evaluation loss is 0.002742666518315673 in the log: shown with 7 significant digits.
    assert max(significant_digits(value) for value in values) <= 7, values
    assert "0.002742667" in values
    assert {"Training loss", "Loss", "Accuracy"} <= set(labels)
    # The metrics under their own heading, as in the original.
    expect(info.get_by_test_id("landscape-metrics")).to_contain_text("Accuracy")
