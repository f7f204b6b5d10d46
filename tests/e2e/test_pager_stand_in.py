"""The pager's stand-in: a page's rows are drawn before Element's pager code has arrived, and
the stand-in holding its place shows what the real pager then shows, where it shows it.

Element's pager (with its select and input, about 40 KB gzip) loads beside the page
(``PagerBar``); here its script is held back until the stand-in has been looked at.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.helpers.fixtures import copy_job
from tests.helpers.held_scripts import hold_scripts, release
from tests.helpers.server import running_server

JOBS = 95
# Element's pagination component names itself: only the chunk with its code holds the quoted name.
ELEMENT_PAGER = re.compile(rb"[`\"']ElPagination[`\"']")
STAND_IN = '[data-testid="pager-stand-in"]'
REAL = '.pager .el-pagination:not([data-testid="pager-stand-in"])'


@pytest.fixture(scope="module")
def many(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("pager") / "base"
    for index in range(JOBS):
        copy_job("g_max_file_size", base / f"job_{index:02d}")
    with running_server(base, tmp_path_factory.mktemp("workspace")) as running:
        yield running


def shown(pager) -> dict:
    """What a pager shows: its texts, its page items (a folded run as "..."), the page box."""
    return {
        "total": pager.locator(".el-pagination__total").inner_text(),
        "size": pager.locator(".el-pagination__sizes").inner_text(),
        "pages": [text.strip() or "..." for text in pager.locator(".el-pager li").all_inner_texts()],
        "active": pager.locator(".el-pager li.is-active").inner_text().strip(),
        "goto": pager.locator(".el-pagination__goto").inner_text(),
        "page": pager.locator(".el-pagination__editor input").input_value(),
        # The attribute: the whole stand-in counts as disabled (aria-disabled), so clicks wait.
        "prev_disabled": pager.locator(".btn-prev").get_attribute("disabled") is not None,
        "next_disabled": pager.locator(".btn-next").get_attribute("disabled") is not None,
    }


def box(pager) -> tuple:
    found = pager.bounding_box()
    return tuple(round(found[key]) for key in ("x", "y", "width", "height"))


def held_and_released(page, open_page) -> tuple[dict, tuple, dict, tuple]:
    """The stand-in's view and box while the pager code is held, then the real pager's
    (``open_page()`` opens the summary list; routing keeps the browser's cache out)."""
    held = hold_scripts(page, ELEMENT_PAGER)
    open_page()
    expect(page.get_by_test_id("summary-row").first).to_be_visible()  # drawn without the pager code
    stand_in = page.locator(STAND_IN)
    expect(stand_in).to_be_visible()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "Element's pager code was never asked for"
    before, before_box = shown(stand_in), box(stand_in)
    release(held)
    real = page.locator(REAL)
    expect(real).to_be_visible()
    expect(stand_in).to_have_count(0)
    page.unroute("**/static/*.js")
    return before, before_box, shown(real), box(real)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_stand_in_shows_what_the_pager_shows_where_it_shows_it(many, new_page, locale):
    page = new_page(locale)
    before, before_box, after, after_box = held_and_released(page, lambda: page.goto(many.url + "/#/summary-manage"))
    assert before == after
    assert before["pages"] == ["1", "2", "3", "4", "5"] and before["prev_disabled"]
    assert before_box == after_box

    # Ten a page, on page 6 of 10: the pager folds runs of pages on both sides.
    real = page.locator(REAL)
    real.locator(".el-pagination__sizes .el-select").click()
    page.locator(".el-select-dropdown__item").filter(has_text="10").first.click()
    real.locator(".el-pager li", has_text="5").click()
    real.locator(".el-pager li", has_text="6").click()
    expect(page.get_by_test_id("summary-row").first.locator("td").first).to_have_text("51")

    # Page and size are kept for the session: a reload opens page 6 again, pager code held.
    before, before_box, after, after_box = held_and_released(page, page.reload)
    assert before == after
    assert before["pages"] == ["1", "...", "4", "5", "6", "7", "8", "...", "10"] and before["active"] == "6"
    assert before_box == after_box


def test_the_summary_list_asks_for_the_pager_once_its_first_page_is_read(many, new_page):
    """The pager's scripts would compete with the list's first request (for the server and the
    main thread): they are asked for only once the first page of jobs has been read."""
    page = new_page()
    held = hold_scripts(page, ELEMENT_PAGER)
    listing = []
    page.route("**/datavisual/train-jobs*", lambda route: listing.append(route))
    page.goto(many.url + "/#/summary-manage")
    expect(page.locator(STAND_IN)).to_be_visible()
    for _ in range(100):
        if listing:
            break
        page.wait_for_timeout(100)
    assert listing, "the summary list never asked for its jobs"
    # Everything the page asks for while its first request is out (a page built, scripts fetched
    # at once: well within this).
    page.wait_for_timeout(1000)
    assert held == [], "Element's pager code was asked for before the first page of jobs was read"
    listing[0].continue_()
    expect(page.get_by_test_id("summary-row").first).to_be_visible()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "Element's pager code was never asked for"
    release(held)
    expect(page.locator(REAL)).to_be_visible()
    expect(page.locator(STAND_IN)).to_have_count(0)


ROWS_SEEN = """
new MutationObserver((_, observer) => {
  if (document.querySelector('[data-testid="summary-row"]')) {
    window.__rowsAt = performance.now()
    observer.disconnect()
  }
}).observe(document, { subtree: true, childList: true })
"""


def test_the_pager_code_is_asked_for_after_the_first_rows_are_drawn(many, new_page):
    """Asking for a module starts a request per file, a few ms of the main thread each: the
    pager's (eleven files) are asked for once the rows are on the page, not in the task that
    puts them there."""
    page = new_page()
    page.add_init_script(ROWS_SEEN)
    pager_files = []

    def seen(response):
        if "/static/" in response.url and response.url.endswith(".js") and ELEMENT_PAGER.search(response.body()):
            pager_files.append(response.url)

    page.on("response", seen)
    page.goto(many.url + "/#/summary-manage")
    expect(page.locator(REAL)).to_be_visible()
    rows_at = page.evaluate("() => window.__rowsAt")
    starts = page.evaluate(
        """(urls) => performance.getEntriesByType('resource')
             .filter((e) => urls.includes(e.name)).map((e) => e.startTime)""",
        pager_files,
    )
    assert starts, "Element's pager code was never asked for"
    assert min(starts) > rows_at, (
        f"the pager's code was asked for at {min(starts):.0f} ms, the rows drawn at {rows_at:.0f} ms"
    )
