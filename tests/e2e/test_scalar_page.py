"""The scalar page in a real browser (English and Chinese): the original's hash route, smoothing,
log y axis, thresholds, synthesis of two tags, box zoom across refreshes, full screen, NaN/Inf
markers, paging, the regex filter and CSV/JSON download.

What is drawn is read from the ECharts instance each chart exposes on its canvas container
(``el.miChart``), so the tests check the plotted series, not just the controls.
"""

import csv
import io
import json
import time
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from playwright.sync_api import expect

from mindinsight.summary.writer import SummaryWriter
from tests.helpers.chart_lines import LINE_PAIRS_JS
from tests.helpers.fixtures import B_SUMMARY_OPS_SCALAR_TAGS
from tests.helpers.server import running_server

# b_summary_ops writes six scalar tags over steps 1..300; nan_inf_scalar holds a NaN at step 150
# and +Infinity at step 151 (the server sends both as null).
TAGS = list(B_SUMMARY_OPS_SCALAR_TAGS)
JOB = "./b_summary_ops"
RENDERED = '[data-testid="scalar-chart"][data-rendered="true"]'
WAIT_MS = 20_000  # the machine may be busy: drawing six charts can take more than expect's 5 s

TEXTS = {
    "en-US": {
        "title": "Scalar",
        "summary_path": "Summary path: ./b_summary_ops",
        "current": "Current threshold:",
        "set": "Set Threshold",
        "delete": "Delete Threshold",
        "synthesis": "Scalar Synthesis",
        "cancel_synthesis": "Cancel Synthesis",
        "all": "All",
        "relative": "Relative time(s)",
        "tooltip_head": ["Name", "Tag", "Smoothed", "Value", "Step", "Relative time", "Absolute time"],
        "greater": "Greater",
        "less": "Less",
    },
    "zh-CN": {
        "title": "标量",
        "summary_path": "训练日志路径：./b_summary_ops",
        "current": "当前阈值：",
        "set": "设置阈值",
        "delete": "删除阈值",
        "synthesis": "标量合成",
        "cancel_synthesis": "取消合成",
        "all": "全选",
        "relative": "相对时间（s）",
        "tooltip_head": ["名称", "标签", "平滑值", "值", "步骤", "相对时间", "绝对时间"],
        "greater": "大于",
        "less": "小于",
    },
}


def scalar_url(server, train_id: str = JOB, **query) -> str:
    """The original's route: #/train-manage/scalar?train_id=<id>&summaryPath=<id>, plus view state."""
    encoded = quote(train_id, safe="")
    url = f"{server.url}/#/train-manage/scalar?train_id={encoded}&summaryPath={encoded}"
    for key, value in query.items():
        url += f"&{key}={quote(str(value), safe='/,')}"
    return url


def view_query(page) -> dict:
    """The view state in the page's hash query, without train_id/summaryPath."""
    query = parse_qs(urlsplit(urlsplit(page.url).fragment).query, keep_blank_values=True)
    query.pop("train_id", None)
    query.pop("summaryPath", None)
    return {key: values[-1] for key, values in query.items()}


def expect_query(browser_page, **expected):
    """Waits until the URL holds exactly this view state (besides the job)."""
    deadline = time.monotonic() + 5
    while view_query(browser_page) != expected:
        assert time.monotonic() < deadline, f"URL query {view_query(browser_page)} != {expected}"
        browser_page.wait_for_timeout(100)


def chart(page, tag: str):
    return page.locator(f'[data-testid="scalar-chart"][data-tag="{tag}"]')


def option(page, tag: str, expression: str):
    """Evaluates ``expression`` on the chart's current ECharts option (``o``)."""
    script = f"el => {{ const o = el.miChart.getOption(); return {expression} }}"
    return chart(page, tag).locator(".chart-canvas").evaluate(script)


def series_data(page, tag: str, series_id: str):
    return option(page, tag, f"{LINE_PAIRS_JS}((o.series.find(s => s.id === '{series_id}') || {{}}).data || null)")


def red_points(page, tag: str) -> list:
    """The [x, y] points of the red threshold overlay (lone points come as {value, symbolSize})."""
    data = series_data(page, tag, "threshold-0") or []
    return [point["value"] if isinstance(point, dict) else point for point in data if point]


def wait_rendered(page, count: int) -> list[str]:
    expect(page.locator('[data-testid="scalar-chart"]')).to_have_count(count, timeout=WAIT_MS)
    expect(page.locator(RENDERED)).to_have_count(count, timeout=WAIT_MS)
    return page.locator('[data-testid="scalar-chart"]').evaluate_all("els => els.map(e => e.dataset.tag)")


def open_page(new_page, server, locale, **query):
    page = new_page(locale)
    page.goto(scalar_url(server, **query))
    return page


def ema(values, weight):
    """Debiased exponential moving average (what the page must draw)."""
    last, out = 0.0, []
    for count, value in enumerate(values, start=1):
        last = last * weight + (1 - weight) * value
        out.append(last / (1 - weight**count))
    return out


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_original_hash_route_opens_page(new_page, server, locale):
    texts = TEXTS[locale]
    page = open_page(new_page, server, locale)
    expect(page.get_by_test_id("scalar-title")).to_have_text(texts["title"])
    expect(page.get_by_text(texts["summary_path"])).to_be_visible()
    assert wait_rendered(page, 6) == TAGS
    expect(page.get_by_test_id("tag-select-all")).to_contain_text(texts["all"])
    bar = page.locator('[data-testid="threshold-bar"][data-tag="accuracy/scalar"]')
    expect(bar).to_contain_text(texts["current"])
    expect(bar.get_by_test_id("threshold-set")).to_have_text(texts["set"])
    expect(page.get_by_test_id("synthesis-toggle")).to_have_text(texts["synthesis"])
    expect(page.locator(".el-pagination__total")).to_contain_text("6")

    # NaN (step 150) and +Inf (step 151) are gaps in the line, each marked at its step.
    nan_chart = chart(page, "nan_inf_scalar/scalar")
    expect(nan_chart.get_by_test_id("non-finite-notice")).to_contain_text("2")
    # The server names each non-finite value, so the notice says which step held which.
    expect(nan_chart.get_by_test_id("non-finite-notice")).to_have_attribute("data-kinds", "NaN,Infinity")
    expect(nan_chart.get_by_test_id("non-finite-notice")).to_contain_text("150")
    expect(nan_chart.get_by_test_id("non-finite-notice")).to_contain_text("151")
    data = series_data(page, "nan_inf_scalar/scalar", "smoothed-0")
    gaps = [point[0] for point in data if point[1] is None]
    assert gaps == [150, 151]
    marked = option(
        page, "nan_inf_scalar/scalar", "o.series.find(s => s.id === 'smoothed-0').markLine.data.map(d => d.xAxis)"
    )
    assert marked == [150, 151]
    expect(chart(page, "accuracy/scalar").get_by_test_id("non-finite-notice")).to_have_count(0)

    # The close button leads to the job's dashboard.
    expect(page.get_by_test_id("scalar-close")).to_have_attribute(
        "href", "#/train-manage/training-dashboard?id=./b_summary_ops"
    )


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_smoothing_changes_plotted_series(new_page, server, locale):
    texts = TEXTS[locale]
    page = open_page(new_page, server, locale)
    wait_rendered(page, 6)
    raw = series_data(page, "custom_loss/scalar", "smoothed-0")
    assert series_data(page, "custom_loss/scalar", "raw-0") is None  # no faint line without smoothing
    values = [point[1] for point in raw]

    page.get_by_test_id("smoothing-input").locator("input").fill("0.6")
    page.get_by_test_id("smoothing-input").locator("input").press("Enter")
    expect_query(page, smoothing="0.6")
    expect(page.locator(RENDERED)).to_have_count(6)
    smoothed = [point[1] for point in series_data(page, "custom_loss/scalar", "smoothed-0")]
    assert smoothed != values
    assert smoothed == pytest.approx(ema(values, 0.6), rel=1e-9)
    # The raw values stay drawn, faintly, behind the smoothed line.
    assert [point[1] for point in series_data(page, "custom_loss/scalar", "raw-0")] == values
    assert option(page, "custom_loss/scalar", "o.series.find(s => s.id === 'raw-0').lineStyle.opacity") < 0.5

    # The tooltip names run, tag, smoothed and raw value, step and both times.
    box = chart(page, "custom_loss/scalar").locator("canvas").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
    tooltip = chart(page, "custom_loss/scalar").locator(".mi-scalar-tooltip")
    expect(tooltip.locator("table")).to_be_visible()
    assert tooltip.locator("th").all_inner_texts() == texts["tooltip_head"]
    cells = tooltip.locator("tbody tr").first.locator("td").all_inner_texts()
    assert cells[0].strip() == JOB and cells[1] == "custom_loss/scalar"

    # Reloading the URL reproduces the view; another x axis redraws in seconds.
    page.reload()
    expect(page.get_by_test_id("smoothing-input").locator("input")).to_have_value("0.60")
    page.get_by_test_id("x-axis").get_by_text(texts["relative"]).click()
    expect_query(page, smoothing="0.6", xaxis="relative")
    expect(page.locator(RENDERED)).to_have_count(6)
    xs = [point[0] for point in series_data(page, "custom_loss/scalar", "smoothed-0")]
    assert xs[0] == 0 and xs == sorted(xs) and xs[-1] > 0 and xs[-1] != 300


def test_log_y_changes_axis_type(new_page, server):
    page = open_page(new_page, server, "en-US")
    wait_rendered(page, 6)
    assert option(page, "custom_loss/scalar", "o.yAxis[0].type") == "value"
    chart(page, "custom_loss/scalar").get_by_test_id("chart-log-y").click()
    expect(chart(page, "custom_loss/scalar")).to_have_attribute("data-log-y", "true")
    assert option(page, "custom_loss/scalar", "o.yAxis[0].type") == "log"
    assert option(page, "accuracy/scalar", "o.yAxis[0].type") == "value"  # per chart
    expect_query(page, logy="custom_loss/scalar")

    # accuracy holds zeros: on a log axis they are left out, and the chart says how many.
    chart(page, "accuracy/scalar").get_by_test_id("chart-log-y").click()
    expect(chart(page, "accuracy/scalar").get_by_test_id("log-dropped")).to_be_visible()
    drawn = [point[1] for point in series_data(page, "accuracy/scalar", "smoothed-0")]
    assert all(value is None or value > 0 for value in drawn)

    page.reload()
    wait_rendered(page, 6)
    assert option(page, "custom_loss/scalar", "o.yAxis[0].type") == "log"
    chart(page, "custom_loss/scalar").get_by_test_id("chart-log-y").click()
    assert option(page, "custom_loss/scalar", "o.yAxis[0].type") == "value"


def threshold_dialog(page, tag: str):
    chart(page, tag).get_by_test_id("threshold-set").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    return dialog


def pick(page, select, label: str):
    """Chooses ``label`` in the dropdown this select opened (one just closed may still be fading out)."""
    select.click()
    dropdown = page.locator(f"#{select.locator('input').get_attribute('aria-controls')}")
    dropdown.locator(".el-select-dropdown__item", has_text=label).click()
    expect(dropdown).to_be_hidden()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_threshold_colours_the_right_points(new_page, server, locale):
    texts = TEXTS[locale]
    page = open_page(new_page, server, locale)
    wait_rendered(page, 6)
    tag = "custom_loss/scalar"
    dialog = threshold_dialog(page, tag)
    dialog.get_by_test_id("threshold-value1").fill("0.5")  # "Less" is the default condition
    expect(dialog.get_by_test_id("threshold-preview")).to_have_text("(-Infinity,0.5)")
    dialog.get_by_test_id("threshold-ok").click()
    expect(dialog).to_be_hidden()

    bar = page.locator(f'[data-testid="threshold-bar"][data-tag="{tag}"]')
    expect(bar.get_by_test_id("threshold-current")).to_have_text("(-Infinity,0.5)")
    expect(bar.get_by_test_id("threshold-delete")).to_have_text(texts["delete"])
    line = series_data(page, tag, "smoothed-0")
    red = red_points(page, tag)
    below = [point for point in line if point[1] is not None and point[1] < 0.5]
    assert below, "custom_loss falls below 0.5 after step ~100"
    assert all(point[1] <= 0.5 + 1e-12 for point in red)
    red_steps = {point[0] for point in red}
    assert all(point[0] in red_steps for point in below)  # every point below 0.5 is red
    assert not red_steps & {point[0] for point in line if point[1] is not None and point[1] > 0.5}
    assert option(page, tag, "o.series.find(s => s.id === 'threshold-0').markLine.data.map(d => d.yAxis)") == [0.5]

    # Kept per job and tag across reloads (localStorage, as the original).
    page.reload()
    expect(bar.get_by_test_id("threshold-current")).to_have_text("(-Infinity,0.5)")

    # Second condition with OR, applied to every selected tag.
    bar.get_by_test_id("threshold-delete").click()
    expect(bar.get_by_test_id("threshold-current")).to_have_text("-")
    assert series_data(page, tag, "threshold-0") is None
    dialog = threshold_dialog(page, "loss_op/scalar")
    pick(page, dialog.get_by_test_id("threshold-op1"), texts["greater"])
    dialog.get_by_test_id("threshold-value1").fill("2.2")
    pick(page, dialog.get_by_test_id("threshold-logic"), "OR")
    pick(page, dialog.get_by_test_id("threshold-op2"), texts["less"])
    dialog.get_by_test_id("threshold-value2").fill("0.01")
    expect(dialog.get_by_test_id("threshold-preview")).to_have_text("(-Infinity,0.01)∪(2.2,Infinity)")
    dialog.get_by_test_id("threshold-apply-selected").click()
    dialog.get_by_test_id("threshold-ok").click()
    expect(page.get_by_test_id("threshold-delete")).to_have_count(6)
    line = series_data(page, tag, "smoothed-0")
    red = {point[0] for point in red_points(page, tag)}
    inside = {point[0] for point in line if point[1] is not None and (point[1] > 2.2 or point[1] < 0.01)}
    between = {point[0] for point in line if point[1] is not None and 0.01 < point[1] < 2.2}
    assert inside and inside <= red and not between & red


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_synthesis_puts_two_tags_on_one_chart(new_page, server, locale):
    texts = TEXTS[locale]
    page = open_page(new_page, server, locale)
    wait_rendered(page, 6)
    page.get_by_test_id("synthesis-toggle").click()
    expect(page.get_by_test_id("synthesis-toggle")).to_have_text(texts["cancel_synthesis"])
    expect_query(page, synthesis="accuracy/scalar,custom_loss/scalar")
    synthesis = page.get_by_test_id("synthesis")
    expect(synthesis.locator(RENDERED)).to_have_count(1)
    tag = "accuracy/scalar / custom_loss/scalar"
    assert option(page, tag, "o.yAxis.map(a => [a.name, a.position])") == [
        ["accuracy/scalar", "left"],
        ["custom_loss/scalar", "right"],
    ]
    assert option(page, tag, "o.series.filter(s => s.id.startsWith('smoothed')).map(s => [s.name, s.yAxisIndex])") == [
        ["accuracy/scalar", 0],
        ["custom_loss/scalar", 1],
    ]
    # Only two tags at once: the other boxes are disabled, "All" is gone.
    expect(page.get_by_test_id("tag-select-all")).to_have_count(0)
    expect(page.locator('[data-testid="tag-option"][data-tag="loss_op/scalar"] input')).to_be_disabled()

    # Tooltip: one row per tag.
    box = synthesis.locator("canvas").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
    expect(synthesis.locator(".mi-scalar-tooltip tbody tr")).to_have_count(2)

    # Swap custom_loss for loss_op.
    page.locator('[data-testid="tag-option"][data-tag="custom_loss/scalar"]').click()
    expect(page.locator('[data-testid="tag-option"][data-tag="loss_op/scalar"] input')).to_be_enabled()
    page.locator('[data-testid="tag-option"][data-tag="loss_op/scalar"]').click()
    expect(chart(page, "accuracy/scalar / loss_op/scalar")).to_have_attribute("data-rendered", "true")
    page.reload()
    expect(chart(page, "accuracy/scalar / loss_op/scalar")).to_have_attribute("data-rendered", "true")

    # No tag: an empty area, every box enabled again; cancelling brings the grid back.
    page.locator('[data-testid="tag-option"][data-tag="accuracy/scalar"]').click()
    page.locator('[data-testid="tag-option"][data-tag="loss_op/scalar"]').click()
    expect(synthesis.locator('[data-testid="scalar-chart"]')).to_have_count(0)
    expect(page.locator('[data-testid="tag-option"] input:disabled')).to_have_count(0)
    page.get_by_test_id("synthesis-toggle").click()
    assert wait_rendered(page, 6) == TAGS


def drag_zoom(page, tag: str, start=(0.25, 0.15), end=(0.6, 0.7), activate=True):
    """Drags a rectangle on the chart; `activate` first turns box zoom on (it then stays on)."""
    target = chart(page, tag)
    if activate:
        target.get_by_test_id("chart-zoom").click()
    box = target.locator("canvas").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] * start[0], box["y"] + box["height"] * start[1])
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * end[0], box["y"] + box["height"] * end[1], steps=6)
    page.mouse.up()


def test_box_zoom_back_restore_and_refresh(page, server):
    page.goto(scalar_url(server))
    wait_rendered(page, 6)
    tag = "custom_loss/scalar"
    drag_zoom(page, tag)
    expect(chart(page, tag)).to_have_attribute("data-zoom-depth", "1")
    first = option(page, tag, "[o.xAxis[0].min, o.xAxis[0].max]")
    assert 1 < first[0] < first[1] < 300
    drag_zoom(page, tag, (0.3, 0.3), (0.5, 0.6), activate=False)
    expect(chart(page, tag)).to_have_attribute("data-zoom-depth", "2")
    second = option(page, tag, "[o.xAxis[0].min, o.xAxis[0].max]")
    assert first[0] < second[0] < second[1] < first[1]

    # A refresh redraws the data but keeps the zoom window.
    page.get_by_test_id("refresh-button").click()
    page.wait_for_timeout(1500)
    expect(chart(page, tag)).to_have_attribute("data-rendered", "true")
    assert option(page, tag, "[o.xAxis[0].min, o.xAxis[0].max]") == second

    chart(page, tag).get_by_test_id("chart-zoom-back").click()
    expect(chart(page, tag)).to_have_attribute("data-zoom-depth", "1")
    assert option(page, tag, "[o.xAxis[0].min, o.xAxis[0].max]") == first
    chart(page, tag).get_by_test_id("chart-restore").click()
    expect(chart(page, tag)).to_have_attribute("data-zoom-depth", "0")
    assert option(page, tag, "[o.xAxis[0].min, o.xAxis[0].max]") == [None, None]


def test_with_box_zoom_off_a_drag_zooms_nothing_also_after_a_redraw(page, server):
    # A redraw sets a whole new option and leaves the box zoom as that option brings it: off.
    page.goto(scalar_url(server))
    wait_rendered(page, 6)
    tag = "custom_loss/scalar"
    drag_zoom(page, tag, activate=False)
    page.wait_for_timeout(300)
    expect(chart(page, tag)).to_have_attribute("data-zoom-depth", "0")
    drag_zoom(page, tag)
    expect(chart(page, tag)).to_have_attribute("data-zoom-depth", "1")
    chart(page, tag).get_by_test_id("chart-restore").click()
    expect(chart(page, tag)).to_have_attribute("data-zoom-depth", "0")
    page.evaluate("() => { location.hash = location.hash + '&smoothing=0.5' }")
    expect_query(page, smoothing="0.5")
    expect(chart(page, tag)).to_have_attribute("data-rendered", "true")
    drag_zoom(page, tag, activate=False)
    page.wait_for_timeout(300)
    expect(chart(page, tag)).to_have_attribute("data-zoom-depth", "0")
    # Turned on again, the box zoom holds across a redraw.
    chart(page, tag).get_by_test_id("chart-zoom").click()
    page.evaluate("() => { location.hash = location.hash.replace('smoothing=0.5', 'smoothing=0.6') }")
    expect_query(page, smoothing="0.6")
    expect(chart(page, tag)).to_have_attribute("data-rendered", "true")
    drag_zoom(page, tag, activate=False)
    expect(chart(page, tag)).to_have_attribute("data-zoom-depth", "1")


def test_a_redraw_while_a_zoom_box_is_dragged_keeps_the_box(page, server):
    # An auto refresh with new points (here: a smoothing change) redraws the chart; one landing
    # between the button's press and its release used to drop the box being drawn.
    page.goto(scalar_url(server))
    wait_rendered(page, 6)
    tag = "custom_loss/scalar"
    target = chart(page, tag)
    target.get_by_test_id("chart-zoom").click()
    box = target.locator("canvas").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.25, box["y"] + box["height"] * 0.15)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.4, box["y"] + box["height"] * 0.4, steps=3)
    page.evaluate("() => { location.hash = location.hash + '&smoothing=0.5' }")
    expect_query(page, smoothing="0.5")
    page.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.7, steps=3)
    page.mouse.up()
    expect(target).to_have_attribute("data-zoom-depth", "1")
    # The redraw was held back, not lost: the faint raw line of a smoothed chart is drawn now.
    page.wait_for_function(
        'tag => !!document.querySelector(`[data-tag="${tag}"] .chart-canvas`).miChart.getOption()'
        ".series.find(s => s.id === 'raw-0')",
        arg=tag,
    )


def test_download_menu_opens_on_the_first_click_and_closes_as_a_popover(page, server):
    # The menu is made on the first click of its button (not with the chart): that click opens it.
    page.goto(scalar_url(server))
    wait_rendered(page, 6)
    button = chart(page, "custom_loss/scalar").get_by_test_id("chart-download")
    menu = page.locator("[data-testid=download-csv]")
    expect(menu).to_have_count(0)
    button.click()
    expect(menu).to_be_visible()
    button.click()
    expect(menu).to_be_hidden()
    button.click()
    expect(menu).to_be_visible()
    page.get_by_test_id("scalar-title").click()
    expect(menu).to_be_hidden()


def test_full_screen_and_download(page, server):
    page.goto(scalar_url(server))
    wait_rendered(page, 6)
    tag = "nan_inf_scalar/scalar"
    chart(page, tag).get_by_test_id("chart-fullscreen").click()
    expect(chart(page, tag)).to_have_attribute("data-fullscreen", "true")
    box = chart(page, tag).bounding_box()
    assert box["width"] == 1440 and box["height"] == 900
    expect_query(page, full=tag)
    page.keyboard.press("Escape")
    expect(chart(page, tag)).to_have_attribute("data-fullscreen", "false")

    chart(page, tag).get_by_test_id("chart-download").click()
    with page.expect_download() as info:
        page.locator("[data-testid=download-csv]:visible").click()
    assert info.value.suggested_filename == "b_summary_ops_nan_inf_scalar_scalar.csv"
    rows = list(csv.DictReader(io.StringIO(open(info.value.path(), encoding="utf-8").read())))
    assert len(rows) == 300 and list(rows[0]) == ["wall_time", "step", "value"]
    by_step = {int(row["step"]): row["value"] for row in rows}
    assert float(by_step[1]) == pytest.approx(0.1) and float(by_step[300]) == pytest.approx(30.0)
    assert by_step[150] in ("", "NaN") and by_step[151] in ("", "Infinity")
    # Choosing a format closed the menu; the button opens it again.
    expect(page.locator("[data-testid=download-csv]:visible")).to_have_count(0)

    chart(page, tag).get_by_test_id("chart-download").click()
    with page.expect_download() as info:
        page.locator("[data-testid=download-json]:visible").click()
    document = json.loads(open(info.value.path(), encoding="utf-8").read())
    assert document["train_id"] == JOB and document["tag"] == tag and len(document["points"]) == 300


def test_filter_and_pager(new_page, tmp_path):
    """Eight tags: six charts on page 1, two on page 2; the regex filter narrows the charts."""
    base = tmp_path / "base"
    tags = [f"group{index % 2}/metric{index}" for index in range(8)]
    with SummaryWriter(str(base / "many")) as writer:
        for step in range(1, 21):
            for index, tag in enumerate(tags):
                writer.add_scalar(tag, float(step * (index + 1)), step)
    ordered = sorted(f"{tag}/scalar" for tag in tags)  # the writer names scalar tags "<tag>/scalar"
    with running_server(base, tmp_path / "workspace") as live:
        page = new_page("en-US")
        page.goto(scalar_url(live, "./many"))
        assert wait_rendered(page, 6) == ordered[:6]
        expect(page.locator(".el-pagination__total")).to_contain_text("8")
        page.locator(".el-pagination button.btn-next").click()
        assert wait_rendered(page, 2) == ordered[6:]
        expect_query(page, page="2")

        page.get_by_test_id("tag-filter").fill("^group1/")
        assert wait_rendered(page, 4) == [tag for tag in ordered if tag.startswith("group1/")]
        expect(page.get_by_test_id("tag-option")).to_have_count(4)
        expect_query(page, filter="^group1/")
        page.reload()
        assert wait_rendered(page, 4) == [tag for tag in ordered if tag.startswith("group1/")]
