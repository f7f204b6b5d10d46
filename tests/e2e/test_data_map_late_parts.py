"""The data map page draws its pipeline before Element Plus's buttons and select are loaded
(English and Chinese, light and dark): until they are in, inert stand-ins of the same look hold
their place (the toolbar's buttons, the node select with its placeholder), nothing moves when they
arrive, and the real controls then work.

The code of Element's button and select (the page's late module) is held back by the test until
the first drawing: a page that waits for it never draws.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_data_map_page import PIPELINE, chain, drawn, map_url, server  # noqa: F401
from tests.helpers.held_scripts import hold_scripts, release

WAIT_MS = 20_000
# Element's components name themselves: only the chunks with their code hold the quoted names.
ELEMENT_CONTROLS = re.compile(rb"[`\"'](ElButton|ElSelect)[`\"']")
TEXTS = {
    "en-US": {"buttons": ["Download", "Fit to screen", "Full screen"], "pick": "Choose a node"},
    "zh-CN": {"buttons": ["下载", "适应屏幕", "全屏"], "pick": "选择节点"},
}


def box_of(locator) -> dict:
    return locator.first.bounding_box()


@pytest.mark.parametrize(("locale", "theme"), [("en-US", "light"), ("zh-CN", "dark")])
def test_pipeline_drawn_before_the_controls_code(server, new_page, locale, theme):  # noqa: F811
    texts = TEXTS[locale]
    page = new_page(locale)
    page.add_init_script(f"localStorage.setItem('miTheme', '{'1' if theme == 'dark' else '0'}')")
    held = hold_scripts(page, ELEMENT_CONTROLS)
    page.goto(map_url(server))

    # Drawn while Element's button and select are held back; the stand-ins hold their place.
    assert chain(drawn(page)) == PIPELINE
    for _ in range(WAIT_MS // 100):  # asked for once the pipeline is drawn
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the controls' Element code was never asked for"
    expect(page.get_by_test_id("node-select")).to_have_count(0)
    expect(page.get_by_test_id("data-map-download")).to_have_count(0)
    stand_ins = page.get_by_test_id("data-map-button-stand-in")
    expect(stand_ins).to_have_text(texts["buttons"])
    for index in range(3):
        expect(stand_ins.nth(index)).to_be_disabled()
    select = page.locator('[data-testid="node-panel"] .el-select')
    expect(select).to_have_text(texts["pick"])
    expect(select.locator(".el-select__placeholder")).to_have_class(re.compile(r"\bis-transparent\b"))
    chart_box = box_of(page.get_by_test_id("pipeline-chart"))
    select_box = box_of(select)

    release(held)

    # The real controls replace the stand-ins in place and work.
    expect(page.get_by_test_id("node-select")).to_be_visible(timeout=WAIT_MS)
    expect(stand_ins).to_have_count(0)
    expect(page.locator('[data-testid^="data-map-"].el-button')).to_have_text(texts["buttons"])
    assert box_of(page.get_by_test_id("pipeline-chart")) == chart_box
    assert box_of(page.get_by_test_id("node-select")) == select_box
    page.get_by_test_id("node-select").click()
    page.locator(".el-select-dropdown__item", has_text="5. Batch").click()
    expect(page.get_by_test_id("node-info")).to_have_attribute("data-op-type", "Batch")
    page.get_by_test_id("data-map-fullscreen").click()
    expect(page.get_by_test_id("data-map-drawing")).to_have_class(re.compile(r"\bfull-screen\b"))
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("data-map-drawing")).not_to_have_class(re.compile(r"\bfull-screen\b"))
    page.unroute_all(behavior="ignoreErrors")


def test_stand_in_shows_the_urls_node(server, new_page):  # noqa: F811
    """A link to a node: the stand-in select shows that node, as the real one then does."""
    page = new_page("en-US")
    page.goto(map_url(server))
    drawn(page)
    page.get_by_test_id("node-select").click()
    page.locator(".el-select-dropdown__item", has_text="4. Shuffle").click()
    link = page.url

    # At 390 px wide, where the panel goes below the drawing: the drawing keeps its height.
    other = page.context.new_page()
    other.set_viewport_size({"width": 390, "height": 900})
    held = hold_scripts(other, ELEMENT_CONTROLS)
    other.goto(link)
    drawn(other)
    assert box_of(other.get_by_test_id("pipeline-chart"))["height"] >= 480
    select = other.locator('[data-testid="node-panel"] .el-select')
    expect(select).to_have_text("4. Shuffle")
    expect(select.locator(".el-select__placeholder")).not_to_have_class(re.compile(r"\bis-transparent\b"))
    release(held)
    expect(other.get_by_test_id("node-select")).to_have_text("4. Shuffle", timeout=WAIT_MS)
    other.unroute_all(behavior="ignoreErrors")
