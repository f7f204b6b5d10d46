"""The tensor page draws its first table before the Element Plus parts of its controls are loaded
(English and Chinese, light and dark): until they are in, stand-ins of the same look show the
card's state (number format, dimension selection, step), nothing moves when they arrive, and the
controls then work. And the table's own code (Element's virtual table) is not in the way of the
page's first requests: the page asks for its tags and the cards for their steps while it loads.

The code the test holds back is found by the names Element's components give themselves: only the
chunks with their code hold the quoted names.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_tensor_page import card, tensor_url
from tests.helpers.held_scripts import hold_scripts, release

WAIT_MS = 20_000
INT_TAG = "int_tensor/tensor"
ELEMENT_CONTROLS = re.compile(rb"[`\"'](ElSelect|ElInput|ElSlider)[`\"']")
ELEMENT_TABLE = re.compile(rb"[`\"']ElTableV2Grid[`\"']")
VALUE = {"en-US": "Value", "zh-CN": "数值"}


def open_held(new_page, locale: str, theme: str, url: str, pattern: re.Pattern, asked: list | None = None):
    """The page at `url` with the scripts matching `pattern` held back; the data requests' URLs
    go to `asked`."""
    page = new_page(locale)
    page.add_init_script(f"localStorage.setItem('miTheme', '{'1' if theme == 'dark' else '0'}')")
    held = hold_scripts(page, pattern)
    if asked is not None:
        page.on("request", lambda request: "/v1/" in request.url and asked.append(request.url))
    page.goto(url)
    return page, held


def wait_until_asked(page, held: list):
    for _ in range(WAIT_MS // 100):
        if held:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the held Element code was never asked for")


def release_until(page, held: list, locator):
    """Releases the held scripts, and those asked for after them (the selects come once the other
    late parts are in), until `locator` is on the page."""
    for _ in range(WAIT_MS // 100):
        release(held)
        held.clear()
        if locator.count():
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{locator} never came")


def top_of(locator) -> float:
    return locator.first.bounding_box()["y"]


@pytest.mark.parametrize(("locale", "theme"), [("en-US", "light"), ("zh-CN", "dark")])
def test_first_table_before_the_controls_code(server, new_page, locale, theme):
    page, held = open_held(new_page, locale, theme, tensor_url(server, tags=INT_TAG), ELEMENT_CONTROLS)
    integer = card(page, INT_TAG)

    # The table is drawn while the controls' Element code is held back; stand-ins show the state.
    expect(integer.get_by_test_id("tensor-cell")).to_have_count(6, timeout=WAIT_MS)
    wait_until_asked(page, held)
    expect(integer.get_by_test_id("tensor-cell").first).to_have_text("0")
    expect(page.get_by_test_id("tensor-category")).to_have_count(0)
    expect(page.get_by_test_id("tensor-accuracy")).to_have_count(0)
    expect(page.get_by_test_id("dims-input")).to_have_count(0)
    expect(page.get_by_role("slider")).to_have_count(0)
    selects = integer.locator(".format-row .el-select")
    expect(selects).to_have_count(2)
    expect(selects.nth(0)).to_have_text(VALUE[locale])
    expect(selects.nth(1)).to_have_text("5")
    expect(integer.locator(".dims .el-input input")).to_have_value(":, :")
    expect(integer.locator(".info .el-slider")).to_be_visible()
    expect(integer.get_by_test_id("tensor-step")).to_contain_text("300")
    # The native mode switch shows the URL's mode from the start.
    expect(page.get_by_test_id("mode-table")).to_have_class(re.compile(r"\bis-active\b"))
    tops = [top_of(integer.locator(selector)) for selector in (".format-row", ".stats", ".info .el-slider")]

    release_until(page, held, integer.get_by_test_id("tensor-accuracy"))

    # The real controls replace their stand-ins in place, with the same state, and work.
    expect(integer.get_by_test_id("tensor-accuracy")).to_be_visible(timeout=WAIT_MS)
    expect(integer.get_by_test_id("tensor-step-slider")).to_be_visible()
    assert [top_of(integer.locator(selector)) for selector in (".format-row", ".stats", ".info .el-slider")] == tops
    expect(integer.get_by_test_id("dims-input")).to_have_value(":, :")
    expect(integer.get_by_test_id("tensor-category")).to_contain_text(VALUE[locale])
    integer.get_by_test_id("dims-input").fill("1, :")
    integer.get_by_test_id("dims-input").press("Enter")
    expect(integer.get_by_test_id("tensor-row")).to_have_count(1)
    expect(integer.get_by_test_id("tensor-cell")).to_have_count(3)
    page.unroute_all(behavior="ignoreErrors")


def test_data_asked_for_while_the_table_code_loads(server, new_page):
    asked = []
    page, held = open_held(new_page, "en-US", "light", tensor_url(server, tags=INT_TAG), ELEMENT_TABLE, asked)
    wait_until_asked(page, held)
    # Without the table's code the card has its steps (and asks for its slice); no cell yet.
    expect(card(page, INT_TAG).get_by_test_id("tensor-step")).to_contain_text("300", timeout=WAIT_MS)
    expect(page.get_by_test_id("tensor-cell")).to_have_count(0)
    assert any("/datavisual/tensors?" in url and "detail=" not in url for url in asked), asked

    release(held)

    expect(card(page, INT_TAG).get_by_test_id("tensor-cell")).to_have_count(6, timeout=WAIT_MS)
    page.unroute_all(behavior="ignoreErrors")


def test_grid_follows_its_box(server, new_page):
    conv = "conv1_feature_map/tensor"
    page = new_page("en-US")
    page.goto(tensor_url(server, tags=conv))
    feature = card(page, conv)
    expect(feature.get_by_test_id("tensor-cell").first).to_be_visible(timeout=WAIT_MS)
    table = feature.get_by_test_id("tensor-table")
    grid = table.locator(".el-table-v2")

    def widths():
        return round(table.bounding_box()["width"]), round(grid.bounding_box()["width"])

    box, drawn = widths()
    assert drawn == box

    # Full width: the grid takes the wider box.
    feature.get_by_test_id("tensor-expand").click()
    expect(feature.get_by_test_id("tensor-expand")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function(f"el => el.getBoundingClientRect().width > {box + 100}", arg=grid.element_handle())
    wide, drawn = widths()
    assert wide > box and drawn == wide
    # A narrow window: the grid shrinks with its box.
    page.set_viewport_size({"width": 390, "height": 900})
    page.wait_for_function(
        """el => {
          const box = el.getBoundingClientRect().width
          return box < 390 && Math.abs(box - el.querySelector('.el-table-v2').getBoundingClientRect().width) < 1
        }""",
        arg=table.element_handle(),
        timeout=WAIT_MS,
    )
