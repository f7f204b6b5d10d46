"""The loss landscape charts' legends, toolbox, track animation, camera read-out, dark theme and
labels in a real browser, on d_landscape_epoch (two interval landscapes over epochs 1-4 and 5-8
on 5 x 5 grids, and a final one) and a copy of it for the comparison.
"""

import io

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.e2e.conftest import TIMEOUT_MS
from tests.e2e.test_landscape_pages import WAIT, ink_at_edges, landscape, option, server  # noqa: F401

JOB = "./d_landscape_epoch"
ANALYSIS = f"/#/train-manage/loss-analysis?train_id={JOB}"
OVERLAY = f"/#/compare-analysis/loss?runs={JOB},./d_landscape_copy&mode=overlay"
TEXTS = {
    "en-US": {"loss": "loss value", "play": "Play Track Animation", "stop": "Stop Animation", "range": "Range"},
    "zh-CN": {"loss": "损失值", "play": "播放轨迹动画", "stop": "停止动画", "range": "范围"},
}
SURFACES = {"light": "#ffffff", "dark": "#2a2a2b"}


def axis_value(value: float) -> str:
    """The UI's compact number (lib/format.js formatAxisValue) for the values of this job."""
    if value == 0:
        return "0"
    if abs(value) >= 1e5 or abs(value) < 1e-3:
        mantissa, exponent = f"{value:.2e}".split("e")
        return f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent):+d}"
    return f"{float(f'{value:.4g}'):g}"


def three_sig(value: float) -> str:
    return f"{float(f'{value:.3g}'):g}"


def grid_extent(item: dict) -> tuple[float, float]:
    values = [value for row in item["points"]["z"] for value in row]
    return min(values), max(values)


def drawn_legend_texts(page, testid: str) -> list[str]:
    """The texts the colour legend (visualMap) drew, as zrender holds them."""
    return page.get_by_test_id(testid).first.evaluate(
        """el => {
            const c = el.__miChart
            const view = c.getViewOfComponentModel(c.getModel().getComponent('visualMap'))
            const texts = []
            view.group.traverse(child => { if (child.style && child.style.text) texts.push(child.style.text) })
            return texts
        }"""
    )


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_colour_bars_carry_their_values(new_page, server, locale):  # noqa: F811
    page = new_page(locale)
    low, high = grid_extent(landscape(server))
    loss = TEXTS[locale]["loss"]
    page.goto(server.url + ANALYSIS)
    # 3-D: the bar's ends read the highest and lowest loss of the surface.
    expect(page.get_by_test_id("landscape-chart")).to_have_attribute("data-rendered", "true", timeout=WAIT)
    texts = drawn_legend_texts(page, "landscape-chart")
    assert f"{loss}: {axis_value(high)}" in texts and f"{loss}: {axis_value(low)}" in texts, texts

    # Isoline map: an entry per contour line (10, evenly between min and max), each with its level.
    page.get_by_test_id("form-isoline").click()
    page.wait_for_function("() => location.hash.includes('form=isoline')")
    expect(page.get_by_test_id("landscape-chart")).to_have_attribute("data-rendered", "true", timeout=WAIT)
    levels = [three_sig(low + (high - low) / 11 * (index + 1)) for index in range(10)]
    texts = drawn_legend_texts(page, "landscape-chart")
    assert [text for text in texts if text.strip() and text != loss] == levels[::-1], texts
    assert loss in texts

    # Topographic map: an entry per band, from the lowest loss up.
    page.get_by_test_id("form-topographic").click()
    page.wait_for_function("() => location.hash.includes('form=topographic')")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=landscape-chart]').__miChart.getOption().series"
        ".some(s => s.type === 'custom')"
    )
    texts = drawn_legend_texts(page, "landscape-chart")
    assert [text for text in texts if text.strip() and text != loss] == [*levels[::-1], three_sig(low)], texts


def test_overlay_names_each_training_in_its_colour(page, server):  # noqa: F811
    page.goto(server.url + OVERLAY)
    expect(page.get_by_test_id("overlay-chart")).to_have_attribute("data-rendered", "true", timeout=WAIT)
    drawn = page.get_by_test_id("overlay-chart").evaluate(
        """el => {
            const c = el.__miChart
            const option = c.getOption()
            const view = c.getViewOfComponentModel(c.getModel().getComponent('legend'))
            const texts = []
            view.getContentGroup().traverse(child => {
                if (child.style && child.style.text) texts.push(child.style.text)
            })
            return {
                texts,
                legend: option.legend[0].data.map(item => [item.name, item.itemStyle.color]),
                surfaces: option.series.filter(s => s.type === 'surface').map(s => [s.name, s.itemStyle.color]),
            }
        }"""
    )
    assert sorted(drawn["texts"]) == ["./d_landscape_copy", JOB], drawn
    assert sorted(drawn["legend"]) == sorted(drawn["surfaces"]), drawn
    assert len({color for _, color in drawn["surfaces"]}) == 2, drawn


def cursor(page):
    return page.get_by_test_id("landscape-chart").evaluate(
        "el => el.__miChart.getOption().series.find(s => s.id === 'track-cursor').data"
    )


def on_track(point: list[float], track: list[list[float]], tolerance: float = 1e-9) -> bool:
    """Whether ``point`` lies on the polyline ``track`` (in as many dimensions as it has)."""
    for start, end in zip(track, track[1:]):
        start, end = start[: len(point)], end[: len(point)]
        length = sum((b - a) ** 2 for a, b in zip(start, end))
        t = sum((p - a) * (b - a) for p, a, b in zip(point, start, end)) / length if length else 0
        t = min(1, max(0, t))
        if sum((p - (a + (b - a) * t)) ** 2 for p, a, b in zip(point, start, end)) <= tolerance:
            return True
    return False


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("form", ["3d", "isoline"])
def test_play_track_animation_runs_a_point_along_the_track(new_page, server, locale, form):  # noqa: F811
    page = new_page(locale)
    path = landscape(server)["path"]
    track = [list(point) for point in zip(path["x"], path["y"], path["z"])]
    page.goto(server.url + ANALYSIS + ("" if form == "3d" else f"&form={form}"))
    expect(page.get_by_test_id("landscape-chart")).to_have_attribute("data-rendered", "true", timeout=WAIT)
    button = page.get_by_test_id("play-track")
    expect(button).to_contain_text(TEXTS[locale]["play"])
    assert cursor(page) == []
    # Every position the chart is given, as it is given (a slow software-rendered frame must not
    # hide any from a test that samples now and then).
    page.get_by_test_id("landscape-chart").evaluate(
        """el => {
            const chart = el.__miChart
            const setOption = chart.setOption.bind(chart)
            window.cursorPositions = []
            chart.setOption = (option, ...rest) => {
                const partial = !option.grid3D && !option.xAxis
                const series = partial && (option.series || []).find(s => s.id === 'track-cursor')
                if (series) window.cursorPositions.push(series.data[0] || null)
                return setOption(option, ...rest)
            }
        }"""
    )
    button.click()
    expect(button).to_contain_text(TEXTS[locale]["stop"])
    # A new size (a window resized, a late font or control moving the layout) redraws the chart
    # to fit; the point goes on to the end.
    width = page.get_by_test_id("landscape-chart").evaluate("el => el.getBoundingClientRect().width")
    page.set_viewport_size({"width": 1300, "height": 860})
    page.wait_for_function(
        "w => document.querySelector('[data-testid=landscape-chart]').getBoundingClientRect().width !== w", arg=width
    )
    expect(button).to_contain_text(TEXTS[locale]["play"], timeout=10_000)
    positions = page.evaluate("window.cursorPositions")
    seen = [point for point in positions if point]
    # The point moved along the track (the 2-D maps draw it in x and y) from start to end, then went.
    assert len({tuple(point) for point in seen}) >= 3, seen
    assert all(on_track(point, track) for point in seen), seen
    assert seen[0] != seen[-1] and seen[-1] == pytest.approx(track[-1][: len(seen[-1])]), seen
    assert positions[-1] is None
    expect(page.locator("[data-playing]").first).to_have_attribute("data-playing", "false")
    assert cursor(page) == []


# The centre of each toolbox icon (save as image, restore) in page pixels.
TOOLBOX_ICONS = """el => {
  const c = el.__miChart
  const view = c.getViewOfComponentModel(c.getModel().getComponent('toolbox'))
  const box = el.getBoundingClientRect()
  return view.group.children().filter(icon => icon.__title).map(icon => {
    const rect = icon.getBoundingRect().clone()
    rect.applyTransform(icon.getComputedTransform())
    return [box.left + rect.x + rect.width / 2, box.top + rect.y + rect.height / 2]
  })
}"""


def camera_readout(page) -> dict[str, str]:
    spans = page.get_by_test_id("camera-rotation").locator("[data-name]")
    return dict(zip(spans.evaluate_all("els => els.map(e => e.dataset.name)"), spans.all_inner_texts()))


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_toolbox_saves_the_chart_and_restores_the_camera_shown_in_the_readout(new_page, server, locale):  # noqa: F811
    page = new_page(locale)
    page.goto(server.url + ANALYSIS)
    chart = page.get_by_test_id("landscape-chart")
    expect(chart).to_have_attribute("data-rendered", "true", timeout=WAIT)
    page.wait_for_timeout(300)
    # The read-out shows the view the chart was drawn with.
    expect(page.get_by_test_id("camera-rotation")).to_contain_text("α: 25")
    first = camera_readout(page)
    assert first["α"] == "α: 25" and first["β"] == "β: 40", first
    expect(page.get_by_test_id("camera-position")).to_contain_text("x: 0")

    # Turning the view (a drag across the box) updates the read-out.
    box = chart.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.4, box["y"] + box["height"] * 0.5)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.35, steps=8)
    page.mouse.up()
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=camera-rotation]').textContent.includes('β: 40')", timeout=WAIT
    )
    assert camera_readout(page) != first

    page.wait_for_timeout(1500)  # the view glides a little after the drag
    save, restore = chart.evaluate(TOOLBOX_ICONS)
    # Restore: the first view again, and the read-out says so.
    page.mouse.click(*restore)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=camera-rotation]').textContent.includes('β: 40')", timeout=WAIT
    )
    assert camera_readout(page) == first

    # Save as image: a PNG of the chart, surface included (many colours, not a blank canvas).
    with page.expect_download() as download:
        page.mouse.click(*save)
    assert download.value.suggested_filename == "loss-landscape-d_landscape_epoch.png"
    image = Image.open(io.BytesIO(open(download.value.path(), "rb").read())).convert("RGB")
    assert image.width >= box["width"] and len(image.getcolors(1 << 24)) > 200


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("route, testid", [(ANALYSIS, "landscape-chart"), (OVERLAY, "overlay-chart")])
def test_3d_axis_texts_readable_in_both_themes(new_page, server, theme, route, testid):  # noqa: F811
    page = new_page("en-US")
    if theme == "dark":
        page.add_init_script("localStorage.setItem('miTheme', '1')")
    page.goto(server.url + route)
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    colours = option(
        page,
        testid,
        "['xAxis3D', 'yAxis3D', 'zAxis3D'].flatMap(key => [option[key][0].axisLabel.color,"
        " option[key][0].nameTextStyle.color])",
    )
    # echarts-gl draws 3-D axis texts in its own fixed dark grey unless told otherwise.
    assert all(isinstance(colour, str) and colour.startswith("#") for colour in colours), colours
    assert min(contrast(colour, SURFACES[theme]) for colour in colours) >= 4.5, colours


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("viewport", [(1440, 900), (390, 844)], ids=["desktop", "phone"])
def test_range_label_stays_on_one_line(browser, server, locale, viewport):  # noqa: F811
    context = browser.new_context(locale=locale, viewport={"width": viewport[0], "height": viewport[1]})
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(server.url + ANALYSIS)
        select = page.get_by_test_id("interval-select")
        expect(select).to_be_visible(timeout=WAIT)
        # The lines the label's text takes: a range over the text of the select's label.
        lines = select.evaluate(
            """(el, word) => {
                const label = el.closest('label')
                const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT)
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    if (node.textContent.trim() === word) {
                        const range = document.createRange()
                        range.selectNodeContents(node)
                        return new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size
                    }
                }
                return -1
            }""",
            TEXTS[locale]["range"],
        )
        assert lines == 1
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("width", [1440, 390])
def test_dashboard_card_3d_chart_stays_inside_its_card(browser, server, locale, width):  # noqa: F811
    context = browser.new_context(locale=locale, viewport={"width": width, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/#/train-manage/training-dashboard?id={JOB}")
        chart = page.get_by_test_id("landscape-card-chart")
        expect(chart).to_have_attribute("data-rendered", "true", timeout=WAIT)
        chart.scroll_into_view_if_needed()
        page.wait_for_timeout(500)  # echarts-gl draws its labels a frame after 'finished'
        assert ink_at_edges(chart.screenshot()) == {"left": 0, "right": 0, "top": 0, "bottom": 0}
        # A thumbnail: no toolbox on the card.
        assert option(page, "landscape-card-chart", "option.toolbox") in (None, [])
    finally:
        context.close()
