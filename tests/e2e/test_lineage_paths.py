"""Long summary paths in the lineage tables are not broken inside a name (a path may wrap after
a '/' only), and the whole path cell opens the job's dashboard, not only the text's glyphs."""

import re

import pytest
from playwright.sync_api import expect

from tests.helpers.fixtures import MULTI_RUNS, copy_job
from tests.helpers.server import running_server

WAIT = 20_000
LONG = "./run2_momentum_lr0.005_bs16_seed42"

# Per character of the link's text: the top of its line box (a wrapped line starts lower).
LINE_TOPS = """el => {
  const text = el.textContent, node = document.createRange(), tops = []
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    for (let i = 0; i < t.length; i++) {
      node.setStart(t, i); node.setEnd(t, i + 1)
      tops.push([t.data[i], Math.round(node.getBoundingClientRect().top)])
    }
  }
  return tops
}"""


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("paths") / "summary_base"
    copy_job(f"c_multi_runs/{MULTI_RUNS[0]}", base / "run1")
    copy_job(f"c_multi_runs/{MULTI_RUNS[1]}", base / LONG[2:])
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def break_points(tops) -> list[str]:
    """The characters after which the text wraps to a new line."""
    return [tops[i - 1][0] for i in range(1, len(tops)) if tops[i][1] > tops[i - 1][1]]


@pytest.mark.parametrize(("locale", "width"), [("en-US", 1440), ("zh-CN", 390)])
@pytest.mark.parametrize("route", ["model-traceback", "data-traceback"])
def test_a_long_path_wraps_at_slashes_and_opens_the_job_anywhere(new_page, server, locale, width, route):
    page = new_page(locale)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{server.url}/#/{route}")
    link = page.get_by_test_id("row-path").filter(has_text="run2_momentum")
    expect(link).to_have_count(1, timeout=WAIT)
    expect(link).to_have_text(LONG)
    tops = link.evaluate(LINE_TOPS)
    assert set(break_points(tops)) <= {"/"}, tops
    # No part of the path runs out of its cell.
    assert link.evaluate("el => el.scrollWidth <= el.closest('td').clientWidth")

    # A press beside the text, in the cell's right part, opens the job.
    link.scroll_into_view_if_needed()
    cell = link.locator("xpath=ancestor::td").bounding_box()
    box = link.bounding_box()
    page.mouse.click(cell["x"] + cell["width"] - 14, box["y"] + box["height"] / 2)
    expect(page).to_have_url(re.compile(r"#/train-manage/training-dashboard\?id="))
    assert "run2_momentum_lr0.005_bs16_seed42" in page.url
