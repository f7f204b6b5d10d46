"""The parameter distribution page in a real browser: the original's hash route, one chart per
histogram tag, front/top views, the vertical axis of the top view, the hover table, and the tag
selection kept in the URL.

b_summary_ops writes 3 histogram tags over steps 1..300; the server keeps up to 50 steps of each.
"""

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

TAGS = ["conv1_out/histogram", "fc1_out/histogram", "fc3.weight/histogram"]
TEXTS = {
    "en-US": {
        "title": "Parameter Distribution",
        "front": "Front",
        "top": "Top",
        "axis": "Vertical axis",
        "all": "All",
        "step": "Step",
    },
    "zh-CN": {"title": "参数分布图", "front": "正视", "top": "俯视", "axis": "纵轴", "all": "全选", "step": "步骤"},
}
WAIT = 20_000  # ms: a first load on a busy 2-core machine can take a few seconds
RENDERED = '[data-testid="histogram-chart"] [data-testid="distribution-chart"][data-rendered="true"]'
# What a chart drew: series types and counts, and the vertical axis.
DRAWN = """el => { const o = el.querySelector('.canvas').__miChart.getOption();
  return {types: o.series.map(s => s.type), lines: o.series.reduce((n, s) => n + (s.type === 'line' ? 1 : 0), 0),
          points: o.series.map(s => s.data.length), yType: o.yAxis[0].type, yMin: o.yAxis[0].min,
          yMax: o.yAxis[0].max, inverse: !!o.yAxis[0].inverse} }"""


def original_url(server, train_id: str = "./b_summary_ops", extra: str = "") -> str:
    """The URL form the original UI produced (train_id and summaryPath percent-encoded)."""
    encoded = quote(train_id, safe="")
    return f"{server.url}/#/train-manage/histogram?train_id={encoded}&summaryPath={encoded}{extra}"


def charts(page):
    return page.get_by_test_id("histogram-chart")


def wait_drawn(page, count: int):
    expect(charts(page)).to_have_count(count, timeout=WAIT)
    expect(page.locator(RENDERED)).to_have_count(count, timeout=WAIT)


def drawn(page, tag: str) -> dict:
    return page.locator(f'[data-testid="histogram-chart"][data-tag="{tag}"]').evaluate(DRAWN)


def retained(server, tag: str) -> list[dict]:
    return server.get("/datavisual/histograms", params={"train_id": "./b_summary_ops", "tag": tag}).json()["histograms"]


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_original_route_opens_one_chart_per_tag(new_page, server, locale):
    page = new_page(locale)
    texts = TEXTS[locale]
    page.goto(original_url(server))
    wait_drawn(page, 3)
    expect(page.get_by_test_id("page-title")).to_have_text(texts["title"])
    assert charts(page).evaluate_all("els => els.map(e => e.dataset.tag)") == TAGS
    expect(charts(page).locator("figcaption")).to_have_text(TAGS)
    expect(page.get_by_test_id("view-front")).to_have_text(texts["front"])
    expect(page.get_by_test_id("view-top")).to_have_text(texts["top"])
    expect(page.get_by_text(texts["axis"], exact=True)).to_be_visible()
    expect(page.get_by_test_id("tag-select-all")).to_contain_text(texts["all"])
    # Default: top view over steps, one ridge per retained step.
    for tag in TAGS:
        chart = page.locator(f'[data-testid="histogram-chart"][data-tag="{tag}"] [data-testid="distribution-chart"]')
        expect(chart).to_have_attribute("data-view", "top")
        expect(chart).to_have_attribute("data-steps", str(len(retained(server, tag))))
    expect(page.locator('[data-testid="axis-step"] input')).to_be_checked()


def test_front_and_top_views_draw_differently(page, server):
    page.goto(original_url(server))
    wait_drawn(page, 3)
    steps = retained(server, "fc3.weight/histogram")
    buckets = len(steps[0]["buckets"])
    top = drawn(page, "fc3.weight/histogram")
    assert top["types"] == ["custom"] and top["points"] == [len(steps)] and top["inverse"]

    page.get_by_test_id("view-front").click()
    expect(page).to_have_url(re.compile(r"view=front"))
    wait_drawn(page, 3)
    front = drawn(page, "fc3.weight/histogram")
    # One line per retained step through the bucket centres, over a count axis.
    assert front["lines"] == len(steps) and set(front["points"]) == {buckets}
    assert front["yType"] == "value" and not front["inverse"] and front["yMin"] == 0
    expect(page.get_by_test_id("axis-switch")).to_have_count(0)  # the vertical axis belongs to the top view

    page.reload()  # the view is kept in the URL
    wait_drawn(page, 3)
    assert drawn(page, "fc3.weight/histogram")["types"][0] == "line"
    page.get_by_test_id("view-top").click()
    wait_drawn(page, 3)
    assert drawn(page, "fc3.weight/histogram")["types"] == ["custom"]


def test_vertical_axis_choice_changes_the_axis(page, server):
    page.goto(original_url(server))
    wait_drawn(page, 3)
    steps = retained(server, "conv1_out/histogram")
    first, last = min(s["step"] for s in steps), max(s["step"] for s in steps)
    times = sorted(s["wall_time"] for s in steps)

    by_step = drawn(page, "conv1_out/histogram")
    assert (by_step["yType"], by_step["yMin"], by_step["yMax"]) == ("value", first, last)

    page.get_by_test_id("axis-relative").click()
    wait_drawn(page, 3)
    relative = drawn(page, "conv1_out/histogram")
    assert relative["yType"] == "value" and relative["yMin"] == 0
    assert relative["yMax"] == pytest.approx(times[-1] - times[0], abs=1e-3)

    page.get_by_test_id("axis-absolute").click()
    wait_drawn(page, 3)
    absolute = drawn(page, "conv1_out/histogram")
    assert absolute["yType"] == "time"
    assert absolute["yMin"] == pytest.approx(times[0] * 1000, abs=1)
    assert absolute["yMax"] == pytest.approx(times[-1] * 1000, abs=1)
    expect(page).to_have_url(re.compile(r"axis=absolute"))


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_hover_highlights_a_step_and_shows_its_values(new_page, server, locale):
    page = new_page(locale)
    page.goto(original_url(server))
    wait_drawn(page, 3)
    figure = page.locator('[data-testid="histogram-chart"][data-tag="fc3.weight/histogram"]')
    tooltip = figure.get_by_test_id("distribution-tooltip")
    # The pointer moves over the chart as a user's would, until the layout has settled (a resize
    # while the page is still arranging itself drops the hover, as it must: its pixels moved).
    for attempt in range(20):
        box = figure.locator("canvas").first.bounding_box()
        page.mouse.move(box["x"] + box["width"] * (0.40 + attempt % 4 * 0.02), box["y"] + box["height"] * 0.75)
        if tooltip.count():
            break
        page.wait_for_timeout(250)
    expect(tooltip).to_be_visible()
    expect(tooltip.locator("th").nth(2)).to_have_text(TEXTS[locale]["step"])
    step = int(tooltip.locator("td").nth(2).inner_text())
    assert step in {s["step"] for s in retained(server, "fc3.weight/histogram")}
    graphic = figure.locator(".canvas").evaluate("el => el.__miChart.getOption().graphic[0].elements.map(e => e.type)")
    assert graphic[0] == "polyline" and graphic.count("circle") == len(retained(server, "fc3.weight/histogram"))
    page.mouse.move(5, 5)
    expect(tooltip).to_have_count(0)


def test_tag_selection_lives_in_the_url(page, server):
    page.goto(original_url(server, extra="&tags=" + quote("fc3.weight/histogram,conv1_out/histogram", safe="/,")))
    wait_drawn(page, 2)
    assert charts(page).evaluate_all("els => els.map(e => e.dataset.tag)") == [TAGS[0], TAGS[2]]
    expect(page.locator('[data-testid="tag-option"][data-tag="fc1_out/histogram"] input')).not_to_be_checked()

    page.locator('[data-testid="tag-option"][data-tag="conv1_out/histogram"]').click()
    wait_drawn(page, 1)
    expect(page).to_have_url(re.compile(r"tags=fc3\.weight%2Fhistogram$|tags=fc3\.weight/histogram$"))
    page.reload()
    wait_drawn(page, 1)

    # The regular-expression filter narrows the list; "All" then selects just what it shows.
    page.get_by_test_id("tag-filter").fill("^fc")
    expect(page.get_by_test_id("tag-option")).to_have_count(2)
    page.get_by_test_id("tag-select-all").click()
    wait_drawn(page, 2)
    page.get_by_test_id("tag-filter").fill("")
    page.get_by_test_id("tag-select-all").click()
    wait_drawn(page, 3)
    page.get_by_test_id("tag-select-all").click()
    expect(charts(page)).to_have_count(0)


def test_full_screen_widens_one_chart(page, server):
    page.goto(original_url(server))
    wait_drawn(page, 3)
    figure = charts(page).nth(1)
    width = figure.bounding_box()["width"]
    figure.get_by_test_id("full-screen").click()
    expect(figure).to_have_class(re.compile("full-screen"))
    expect(page.locator(RENDERED)).to_have_count(3, timeout=WAIT)
    assert figure.bounding_box()["width"] > width * 2
    figure.get_by_test_id("full-screen").click()
    expect(figure).not_to_have_class(re.compile("full-screen"))


def test_phone_width_does_not_scroll_sideways(browser, server):
    context = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(original_url(server, extra="&axis=absolute"))
        wait_drawn(page, 3)
        widths = page.evaluate("({doc: document.documentElement.scrollWidth, view: window.innerWidth})")
        assert widths["doc"] <= widths["view"], widths
        for locator in (page.get_by_test_id("axis-switch"), charts(page).first.get_by_test_id("full-screen")):
            box = locator.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    finally:
        context.close()
