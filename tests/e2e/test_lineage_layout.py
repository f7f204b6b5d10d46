"""The lineage pages fit a 390 px wide phone: nothing runs out of the page sideways."""

import pytest
from playwright.sync_api import expect

WAIT = 20_000


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("route", ["model-traceback", "data-traceback"])
def test_no_sideways_overflow_at_390_px(new_page, server, locale, route):
    page = new_page(locale)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server.url}/#/{route}")
    expect(page.get_by_test_id("row-path").first).to_be_visible(timeout=WAIT)
    expect(page.get_by_test_id("parallel-chart")).to_have_attribute("data-rendered", "true", timeout=WAIT)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{overflow} px too wide"
