"""What must stay readable, in a real browser: the profiler's operator-type chart gives every type
of its top 20 its own colour (the same in the pie and the bars, in the light and the dark theme)
and its legend never lies over the pie (1440 to 390 px wide); the operator precision page's scope
tags show their underscores (no descender cut off); small images are drawn pixelated when scaled up
on the image page and the dashboard, and smooth when not scaled up.

h_profiler_resnet holds 18 operator types; b_summary_ops' images are 128x32 and 48x32.
"""

import itertools
import math
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.helpers.fixtures import copy_job
from tests.helpers.server import running_server

WAIT = 20_000
PROFILER_JOB = "./h_profiler_resnet"
SURFACES = {"light": "#ffffff", "dark": "#2a2a2b"}
TEXTS = {
    "en-US": {"profiling": "Profiling", "dark": "Dark Theme"},
    "zh-CN": {"profiling": "性能分析", "dark": "深色主题"},
}


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("readability") / "summary_base"
    for job in ("h_profiler_resnet", "a_lenet_collector", "b_summary_ops"):
        copy_job(job, base / job)
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


# --- colour arithmetic (sRGB -> relative luminance, CIELAB) -------------------------------------


def rgb(color: str) -> tuple[int, int, int]:
    color = color.strip().lstrip("#")
    assert len(color) == 6, color
    return tuple(int(color[i : i + 2], 16) for i in (0, 2, 4))


def linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(color: str) -> float:
    r, g, b = map(linear, rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted([luminance(a), luminance(b)], reverse=True)
    return (high + 0.05) / (low + 0.05)


def lab(color: str) -> tuple[float, float, float]:
    r, g, b = map(linear, rgb(color))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


# --- profiler chart ------------------------------------------------------------------------------


def open_profiler(page, server, locale: str):
    page.goto(f"{server.url}/#/summary-manage")
    row = page.locator(f'[data-testid=summary-row][data-train-id="{PROFILER_JOB}"]')
    link = row.get_by_test_id("profiling-link")
    expect(link).to_have_text(TEXTS[locale]["profiling"], timeout=WAIT)
    link.click()
    return chart(page)


def chart(page):
    element = page.get_by_test_id("types-chart")
    expect(element).to_have_attribute("data-rendered", "true", timeout=WAIT)
    return element


# The colour each data item is drawn with (its visual, after the theme and the option).
DRAWN_COLORS = """el => {
  const c = el.__miChart
  const series = c.getOption().series[0]
  const items = series.data.map((d, i) => [d.name, c.getVisual({ seriesIndex: 0, dataIndex: i }, 'color')])
  return { type: series.type, items }
}"""


def drawn_colors(page, kind: str) -> list[tuple[str, str]]:
    element = chart(page)
    page.wait_for_function(
        "kind => document.querySelector('[data-testid=types-chart]').__miChart.getOption().series[0].type === kind",
        arg=kind,
    )
    drawn = element.evaluate(DRAWN_COLORS)
    return [(name, color.lower()) for name, color in drawn["items"]]


def assert_distinct_and_readable(items: list[tuple[str, str]], theme: str):
    names = [name for name, _ in items]
    colors = [color for _, color in items]
    assert len(items) == 18 and len(set(names)) == 18
    assert len(set(colors)) == len(colors), f"types share a colour: {items}"
    # Far enough apart to tell apart (CIE76 distance), and visible on the card's background.
    closest = min(math.dist(lab(a), lab(b)) for a, b in itertools.combinations(colors, 2))
    assert closest >= 10, f"two type colours are nearly the same ({closest:.1f})"
    weakest = min(contrast(color, SURFACES[theme]) for color in colors)
    assert weakest >= (2 if theme == "light" else 3), f"a type colour fades into the {theme} card ({weakest:.2f})"


def switch_to_dark(page, locale: str):
    page.get_by_test_id("theme-select").select_option(label=TEXTS[locale]["dark"])
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_profiler_types_have_their_own_colour_in_pie_and_bars_in_both_themes(new_page, server, locale):
    page = new_page(locale)
    open_profiler(page, server, locale)
    by_theme = {}
    for theme in ("light", "dark"):
        if theme == "dark":
            switch_to_dark(page, locale)
            page.wait_for_function(
                "before => { const c = document.querySelector('[data-testid=types-chart]').__miChart;"
                " return c.getVisual({ seriesIndex: 0, dataIndex: 0 }, 'color').toLowerCase() !== before }",
                arg=by_theme["light"][0][1],
            )
        pie = drawn_colors(page, "pie")
        assert_distinct_and_readable(pie, theme)
        page.get_by_test_id("chart-bar").click()
        bar = drawn_colors(page, "bar")
        # A type keeps its colour from the pie to the bars.
        assert bar == pie
        page.get_by_test_id("chart-pie").click()
        by_theme[theme] = pie
    assert [name for name, _ in by_theme["dark"]] == [name for name, _ in by_theme["light"]]


# The legend's box and the pie's circle, in the chart's pixels.
LAYOUT = """el => {
  const c = el.__miChart
  const legend = c.getModel().getComponent('legend')
  const view = c.getViewOfComponentModel(legend)
  // The legend's box as laid out (its background rect; a scrolling legend clips the rest).
  const group = view.group
  const box = view._backgroundEl.shape
  const pie = c.getModel().getSeriesByIndex(0).getData().getItemLayout(0)
  return {
    width: c.getWidth(), height: c.getHeight(),
    legend: { x: group.x + box.x, y: group.y + box.y, width: box.width, height: box.height },
    pie: { cx: pie.cx, cy: pie.cy, r: pie.r },
  }
}"""


def rect_meets_circle(rect: dict, circle: dict) -> bool:
    nearest_x = min(max(circle["cx"], rect["x"]), rect["x"] + rect["width"])
    nearest_y = min(max(circle["cy"], rect["y"]), rect["y"] + rect["height"])
    return math.hypot(circle["cx"] - nearest_x, circle["cy"] - nearest_y) < circle["r"]


@pytest.mark.parametrize("width", [1440, 641, 600, 390])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_profiler_legend_stays_off_the_pie(new_page, server, width, theme):
    page = new_page("en-US")
    page.set_viewport_size({"width": width, "height": 900})
    if theme == "dark":
        page.add_init_script("localStorage.setItem('miTheme', '1')")
    open_profiler(page, server, "en-US")
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    layout = chart(page).evaluate(LAYOUT)
    legend, pie = layout["legend"], layout["pie"]
    assert pie["r"] >= 60, layout  # a pie one can read
    assert legend["width"] > 0 and legend["height"] > 0, layout
    assert not rect_meets_circle(legend, pie), f"the legend covers the pie at {width} px: {layout}"
    # Both inside the chart.
    assert 0 <= legend["x"] and legend["x"] + legend["width"] <= layout["width"] + 0.5, layout
    assert 0 <= legend["y"] and legend["y"] + legend["height"] <= layout["height"] + 0.5, layout
    assert pie["cy"] - pie["r"] >= 0 and pie["cy"] + pie["r"] <= layout["height"] + 0.5, layout
    assert pie["cx"] - pie["r"] >= 0 and pie["cx"] + pie["r"] <= layout["width"] + 0.5, layout


# --- operator precision scope tags ---------------------------------------------------------------

# For each shown scope tag: the box its text is clipped to (the tag's content element) and the box
# the text's glyphs take (a range over the text: the font's ascent to its descent, where `_` lies).
TAG_BOXES = """els => els.map(el => {
  const content = el.querySelector('.el-tag__content') || el
  const clip = content.getBoundingClientRect()
  const range = document.createRange()
  range.selectNodeContents(content)
  const text = range.getBoundingClientRect()
  return {
    text: content.textContent,
    clipTop: clip.top, clipBottom: clip.bottom,
    textTop: text.top, textBottom: text.bottom,
    overflow: getComputedStyle(content).overflowY,
  }
})"""


@pytest.mark.parametrize("width", [1440, 390])
@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_operator_precision_scope_tags_keep_their_underscores(new_page, server, locale, width):
    page = new_page(locale)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(
        f"{server.url}/#/train-manage/operatorPrecision?train_id={quote('./a_lenet_collector', safe='./')}&search=conv1"
    )
    tags = page.get_by_test_id("operator-table").locator(".full-name")
    expect(tags.first).to_contain_text("_backbone", timeout=WAIT)
    boxes = tags.evaluate_all(TAG_BOXES)
    assert boxes and all("_" in box["text"] for box in boxes)
    for box in boxes:
        # The text's whole line (its descenders with it) lies inside the box it is clipped to.
        assert box["textTop"] >= box["clipTop"] - 0.5, box
        assert box["textBottom"] <= box["clipBottom"] + 0.5, f"the underscores of {box['text']} are cut: {box}"


# --- small images --------------------------------------------------------------------------------

IMAGE_JOB = "./b_summary_ops"
IMAGE_PAGES = {
    # The page's address and the test id of its <img> elements.
    "image page": (f"#/train-manage/image?train_id={quote(IMAGE_JOB, safe='./')}", "image"),
    "dashboard": (f"#/train-manage/training-dashboard?id={quote(IMAGE_JOB, safe='./')}", "dashboard-image"),
}
# Each shown image once loaded: its size, the size of its box and how it is scaled.
RENDERING = """imgs => imgs.map(img => ({
  complete: img.complete, natural: [img.naturalWidth, img.naturalHeight],
  box: [img.clientWidth, img.clientHeight], rendering: getComputedStyle(img).imageRendering,
}))"""


def loaded_images(page, testid: str) -> list[dict]:
    images = page.get_by_test_id(testid)
    expect(images.first).to_be_visible(timeout=WAIT)
    page.wait_for_function(
        "id => { const imgs = [...document.querySelectorAll(`[data-testid=${id}]`)];"
        " return imgs.length && imgs.every(img => img.complete && img.naturalWidth > 0) }",
        arg=testid,
        timeout=WAIT,
    )
    return images.evaluate_all(RENDERING)


@pytest.mark.parametrize("width", [1440, 390])
@pytest.mark.parametrize("where", list(IMAGE_PAGES))
def test_small_images_are_enlarged_pixelated(new_page, server, where, width):
    page = new_page("en-US")
    page.set_viewport_size({"width": width, "height": 900})
    address, testid = IMAGE_PAGES[where]
    page.goto(f"{server.url}/{address}")
    shown = loaded_images(page, testid)
    for image in shown:
        # 128x32 and 48x32 images in boxes far larger: enlarged, so drawn pixel by pixel.
        assert image["natural"][0] < image["box"][0] and image["natural"][1] < image["box"][1], image
        assert image["rendering"] == "pixelated", f"a small image is enlarged blurry: {image}"


# Boxes smaller than the images (24x16 px), set before the images load.
SMALL_BOXES = """document.addEventListener('DOMContentLoaded', () => {
  const style = document.createElement('style')
  style.textContent = '[data-testid=image], [data-testid=dashboard-image]'
    + ' { width: 24px !important; height: 16px !important; flex: none !important; }'
  document.head.appendChild(style)
})"""


@pytest.mark.parametrize("where", list(IMAGE_PAGES))
def test_images_larger_than_their_box_are_shrunk_smoothly(new_page, server, where):
    page = new_page("en-US")
    page.add_init_script(SMALL_BOXES)
    address, testid = IMAGE_PAGES[where]
    page.goto(f"{server.url}/{address}")
    shown = loaded_images(page, testid)
    for image in shown:
        assert image["box"] == [24, 16] and image["natural"][0] > 24 and image["natural"][1] > 16, image
        assert image["rendering"] == "auto", f"an image shrunk into its box is drawn pixelated: {image}"
