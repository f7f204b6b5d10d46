"""The comparison pages' run lists (scalars and loss comparison) show whole rows only: at the
top, and after a scroll, no run is cut in half by the list's edge."""

import pytest
from playwright.sync_api import expect

from tests.helpers.fixtures import MULTI_RUNS, copy_job
from tests.helpers.server import running_server

WAIT = 20_000
RUNS = 24

# Each option's place against the list's visible box: "in", "out" or "cut".
PLACES = """list => {
  const box = list.getBoundingClientRect()
  return [...list.querySelectorAll('[data-run]')].map((option) => {
    const r = option.getBoundingClientRect()
    if (r.bottom <= box.top + 0.5 || r.top >= box.bottom - 0.5) return 'out'
    return r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 ? 'in' : 'cut'
  })
}"""


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("runlist") / "summary_base"
    for index in range(RUNS):
        copy_job(f"c_multi_runs/{MULTI_RUNS[index % 3]}", base / f"sweep_{index:02d}_{MULTI_RUNS[index % 3]}")
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


@pytest.mark.parametrize(("locale", "width"), [("en-US", 1440), ("zh-CN", 390)])
@pytest.mark.parametrize("route", ["compare-analysis/scalar", "compare-analysis/loss"])
def test_the_run_list_shows_whole_rows(new_page, server, route, locale, width):
    page = new_page(locale)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{server.url}/#/{route}")
    listing = page.locator("[data-testid=run-selector] .list")
    expect(listing.locator("[data-run]")).to_have_count(RUNS, timeout=WAIT)
    assert listing.evaluate("el => el.scrollHeight > el.clientHeight"), "the list should scroll"
    for scroll in (0, 45, 100):
        listing.evaluate("(el, top) => el.scrollTo(0, top)", scroll)
        page.wait_for_timeout(300)
        places = listing.evaluate(PLACES)
        assert "cut" not in places, (scroll, places)
        assert "in" in places
