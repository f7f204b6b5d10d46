"""The scalars comparison page draws its first chart before the Element Plus parts of its controls
are loaded (English and Chinese, light and dark): the run filter, the query box, the grouping
choice, the tag filter and the smoothing controls stand in until then, the charts do not move
when the real ones arrive, and these then work. The list of trainings is asked for as the page
opens, not once its code is in.

The scripts holding the code of Element's input, select and slider are held back by the test
until the first chart is drawn: a page that waits for them never draws.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.helpers.held_scripts import hold_scripts, release

WAIT_MS = 20_000
RENDERED = '[data-testid="scalar-chart"][data-rendered="true"]'
# Element's components name themselves: only the chunks with their code hold the quoted names.
ELEMENT_CONTROLS = re.compile(rb"[`\"']El(Input|Select|Slider)[`\"']")
FILTER_PLACEHOLDER = {"en-US": "Filter trainings", "zh-CN": "筛选训练"}


def first_chart_top(page) -> float:
    return page.locator('[data-testid="scalar-chart"]').first.bounding_box()["y"]


@pytest.mark.parametrize(("locale", "theme"), [("en-US", "light"), ("zh-CN", "dark")])
def test_first_chart_before_the_controls_code_and_nothing_moves(server, new_page, locale, theme):
    page = new_page(locale)
    page.add_init_script(f"localStorage.setItem('miTheme', '{'1' if theme == 'dark' else '0'}')")
    held = hold_scripts(page, ELEMENT_CONTROLS)
    page.goto(f"{server.url}/#/compare-analysis/scalar?smoothing=0.6")

    # Drawn while the controls' Element code is held back; stand-ins hold their places.
    expect(page.locator(RENDERED).first).to_be_visible(timeout=WAIT_MS)
    for _ in range(WAIT_MS // 100):  # asked for once the first chart is drawn
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the controls' Element code was never asked for"
    for testid in ["run-filter", "query-input", "group-by", "tag-filter", "smoothing-slider"]:
        assert page.get_by_test_id(testid).count() == 0, testid
    expect(page.locator(".run-picker .run-filter input")).to_have_attribute("readonly", "")
    expect(page.get_by_test_id("query-box-stand-in")).to_be_visible()
    expect(page.locator(".grouping-stand-in")).to_be_visible()
    expect(page.locator(".smoothing .el-input-number input")).to_have_value("0.60")
    top = first_chart_top(page)

    release(held)

    # The real controls replace the stand-ins in place, with the same state.
    expect(page.get_by_test_id("run-filter")).to_be_visible(timeout=WAIT_MS)
    expect(page.get_by_test_id("run-filter")).to_have_attribute("placeholder", FILTER_PLACEHOLDER[locale])
    expect(page.get_by_test_id("query-input")).to_be_visible()
    expect(page.get_by_test_id("group-by")).to_be_visible()
    expect(page.get_by_test_id("smoothing-input").locator("input")).to_have_value("0.60")
    expect(page.get_by_test_id("query-box-stand-in")).to_have_count(0)
    expect(page.locator(".grouping-stand-in")).to_have_count(0)
    assert first_chart_top(page) == top

    # And they work: the run filter asks the server for matching trainings, the tag filter narrows
    # the charts.
    with page.expect_request(lambda request: "/datavisual/train-jobs?" in request.url and "run2" in request.url):
        page.get_by_test_id("run-filter").fill("run2")
    page.get_by_test_id("tag-filter").fill("^loss/")
    expect(page.get_by_test_id("scalar-chart")).to_have_count(1)
    page.unroute_all(behavior="ignoreErrors")


def test_the_list_of_trainings_is_asked_for_while_the_page_code_loads(server, page):
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    held = hold_scripts(page, re.compile(rb"compare-scalar-page"))
    page.goto(f"{server.url}/#/compare-analysis/scalar")

    # The page's own code is held back: the list is asked for all the same.
    for _ in range(WAIT_MS // 100):
        if held and any("/datavisual/train-jobs?" in url for url in asked):
            break
        page.wait_for_timeout(100)
    assert held, "the page's code was never asked for"
    assert [url for url in asked if "/datavisual/train-jobs?" in url], "the list waited for the page's code"

    release(held)
    # The page takes that answer rather than asking again, and draws.
    expect(page.locator(RENDERED).first).to_be_visible(timeout=WAIT_MS)
    assert len([url for url in asked if "/datavisual/train-jobs?" in url]) == 1
    page.unroute_all(behavior="ignoreErrors")
