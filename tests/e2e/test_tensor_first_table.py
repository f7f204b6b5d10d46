"""The tensor page draws its first table before the Element Plus parts of its controls are loaded
(English and Chinese, light and dark): until they are in, stand-ins of the same look show the
card's state (number format, dimension selection, step), nothing moves when they arrive, and the
controls then work. A small slice is a plain table, drawn without Element's virtual table, whose
code comes after it; a large slice is the virtual grid, sized to its box.

The code the test holds back is found by the names Element's components give themselves: only the
chunks with their code hold the quoted names.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_tensor_page import SLOW, card, tensor_url
from tests.helpers.held_scripts import hold_scripts, release
from tests.helpers.server import running_server

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


@pytest.fixture(scope="module")
def sized_server(built_ui, tmp_path_factory):
    """A server over one job with a slice too large for a plain table (60 x 50 values) and one that
    is plain but scrolls (40 x 40), written by our summary writer."""
    import numpy as np

    from mindinsight.summary.writer import SummaryWriter

    base = tmp_path_factory.mktemp("sized") / "base"
    with SummaryWriter(base / "job") as writer:
        writer.add_tensor("grid", np.arange(3000, dtype=np.float32).reshape(60, 50), step=1)
        writer.add_tensor("square", np.arange(1600, dtype=np.float32).reshape(40, 40), step=1)
    with running_server(base, tmp_path_factory.mktemp("workspace")) as live:
        yield live


def test_small_slice_drawn_without_the_virtual_table_code(server, new_page):
    asked = []
    page, held = open_held(new_page, "en-US", "light", tensor_url(server, tags=INT_TAG), ELEMENT_TABLE, asked)
    integer = card(page, INT_TAG)

    # With Element's virtual table held back, the card has its steps, asks for its slice and draws it.
    expect(integer.get_by_test_id("tensor-cell")).to_have_count(6, timeout=WAIT_MS)
    expect(integer.get_by_test_id("tensor-cell").first).to_have_text("0")
    expect(integer.get_by_test_id("tensor-column")).to_have_text(["0", "1", "2"])
    expect(integer.get_by_test_id("tensor-row")).to_have_text(["0", "1"])
    assert integer.locator(".el-table-v2").count() == 0
    assert any("/datavisual/tensors?" in url and "detail=data" in url for url in asked), asked
    # Its code comes after the first table, with the page's late parts: a large slice chosen later
    # is drawn at once.
    wait_until_asked(page, held)
    release(held)
    page.unroute_all(behavior="ignoreErrors")


def test_grid_follows_its_box(sized_server, new_page):
    page = new_page("en-US")
    page.goto(tensor_url(sized_server, "./job", tags="grid/tensor"))
    feature = card(page, "grid/tensor")
    expect(feature.get_by_test_id("tensor-cell").first).to_be_visible(timeout=SLOW)
    table = feature.get_by_test_id("tensor-table")
    # 3,000 values: the virtual grid, which makes only the cells in view.
    grid = table.locator(".el-table-v2")
    expect(grid).to_have_count(1)
    assert feature.get_by_test_id("tensor-cell").count() < 3000

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


def test_plain_table_keeps_its_headers_in_view(sized_server, new_page):
    page = new_page("en-US")
    page.goto(tensor_url(sized_server, "./job", tags="square/tensor"))
    table = card(page, "square/tensor").get_by_test_id("tensor-table")
    # 1,600 values: a plain table, every cell made, scrolling in its box.
    expect(table.get_by_test_id("tensor-cell")).to_have_count(1600, timeout=SLOW)
    expect(table.locator(".el-table-v2")).to_have_count(0)
    expect(table.get_by_test_id("tensor-cell").nth(41)).to_have_text("41.00000")
    box = table.bounding_box()
    assert box["height"] <= 241

    table.evaluate("el => { el.scrollTop = 400; el.scrollLeft = 600 }")
    page.wait_for_function("el => el.scrollTop === 400 && el.scrollLeft === 600", arg=table.element_handle())
    # The column headers stay at the top and the row indices at the left edge.
    header = table.locator("thead th").nth(13).bounding_box()
    index = table.locator("tbody th").nth(20).bounding_box()
    assert abs(header["y"] - box["y"]) < 1.5, (header, box)
    assert abs(index["x"] - box["x"]) < 1.5, (index, box)
