"""The per-tag pages (scalar, image, histogram, tensor) keep their controls in view while the
charts scroll under them, and their pager sits at the bottom of the window under a few charts.
"""

import pytest
from playwright.sync_api import expect

from tests.helpers.fixtures import copy_job
from tests.helpers.server import running_server

WAIT = 20_000
# page route, job, the page's test id, the controls' selector, its pager's test id
PAGES = {
    "scalar": ("scalar", "./b_summary_ops", "scalar-page", "header.controls", "scalar-pager"),
    "image": ("image", "./a_lenet_collector", "image-page", '[data-testid="per-tag-head"]', "image-pager"),
    "tensor": ("tensor", "./b_summary_ops", "tensor-page", '[data-testid="per-tag-head"]', "tensor-pager"),
    "histogram": ("histogram", "./a_lenet_collector", "histogram-page", '[data-testid="per-tag-head"]', ""),
}


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("pertag") / "summary_base"
    copy_job("a_lenet_collector", base / "a_lenet_collector")
    copy_job("b_summary_ops", base / "b_summary_ops")
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def open_page(new_page, server, name: str, locale: str, height: int):
    route, job, testid, head, pager = PAGES[name]
    page = new_page(locale)
    page.set_viewport_size({"width": 1440, "height": height})
    page.goto(f"{server.url}/#/train-manage/{route}?train_id={job}")
    expect(page.get_by_test_id(testid)).to_be_visible(timeout=WAIT)
    expect(page.locator(head)).to_be_visible(timeout=WAIT)
    return page, page.locator(head), pager


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("name", ["scalar", "image", "tensor", "histogram"])
def test_the_controls_stay_in_view_while_the_charts_scroll(new_page, server, name, locale):
    page, head, _pager = open_page(new_page, server, name, locale, 600)
    page.wait_for_function("document.scrollingElement.scrollHeight > innerHeight + 300", timeout=WAIT)
    page.evaluate("window.scrollTo(0, 300)")
    page.wait_for_function("scrollY >= 300")
    box = head.bounding_box()
    assert abs(box["y"]) <= 1, box
    # Nothing of the charts is drawn over it.
    x, y = box["x"] + box["width"] - 40, box["y"] + box["height"] - 6
    assert head.evaluate("(el, [x, y]) => el.contains(document.elementFromPoint(x, y))", [x, y])


@pytest.mark.parametrize("name", ["scalar", "image", "tensor"])
def test_the_pager_sits_at_the_bottom_under_a_few_charts(new_page, server, name):
    page, _head, pager = open_page(new_page, server, name, "en-US", 1800)
    expect(page.get_by_test_id(pager)).to_be_visible(timeout=WAIT)
    box = page.get_by_test_id(pager).bounding_box()
    assert page.evaluate("document.scrollingElement.scrollHeight") <= 1800
    assert 1800 - (box["y"] + box["height"]) < 80, box
