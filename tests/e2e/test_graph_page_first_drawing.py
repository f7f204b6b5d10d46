"""What the graph page's first drawing waits for: not Element's controls (they come after it, with
stand-ins of the same look meanwhile), not a second request for the top level, which goes out
while the page's code is on its way, and not the layout worker (ELK): the top level alone is laid
out in the page, the worker starts with the page's code and lays out the scopes opened later.
a_lenet_collector holds LeNet's graph.
"""

import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from tests.e2e.test_graph_page import LENET, WAIT, node, open_graph
from tests.helpers.fixtures import copy_job
from tests.helpers.held_scripts import hold_scripts, release
from tests.helpers.server import running_server

TOP_LEVEL = "/datavisual/graphs/nodes?"
PAGE_CODE = re.compile(rb"[`\"']graph-button-stand-in[`\"']")  # only the page's own chunk holds it


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("graph_first") / "summary_base"
    copy_job("a_lenet_collector", base / "a_lenet_collector")
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def is_top_level(url: str) -> bool:
    return TOP_LEVEL in url and "name=" not in url


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_drawing_comes_before_element_s_controls(new_page, server, locale):
    page = new_page(locale)
    answered, held, released = [], [], []
    page.on("response", lambda response: answered.append(1) if is_top_level(response.url) else None)
    # Every script asked for once the top level is in waits until released.
    page.route(
        "**/static/*.js",
        lambda route: held.append(route) if answered and not released else route.continue_(),
    )

    page.goto(f"{server.url}/#/train-manage/graph?train_id={LENET}")
    expect(page.get_by_test_id("graph-node")).to_have_count(2, timeout=WAIT)
    expect(page.get_by_test_id("graph-button-stand-in")).to_have_count(4)
    stand_in = page.get_by_test_id("graph-tree-stand-in")
    expect(stand_in).to_contain_text("Default")
    expect(stand_in).to_contain_text("Gradients")
    expect(page.locator(".side .el-select")).to_be_visible()
    expect(page.locator(".side .el-switch")).to_be_visible()
    expect(page.locator(".side .el-autocomplete input")).to_be_visible()
    assert held, "the late parts were not asked for"
    assert page.get_by_test_id("graph-fit").count() == 0

    released.append(1)
    for route in held:
        route.continue_()
    expect(page.get_by_test_id("graph-fit")).to_be_visible(timeout=WAIT)
    expect(page.get_by_test_id("graph-button-stand-in")).to_have_count(0)
    expect(page.get_by_test_id("graph-tree-stand-in")).to_have_count(0)
    expect(page.get_by_test_id("graph-tree-node")).to_have_count(2)
    expect(page.get_by_test_id("graph-download-svg")).to_be_enabled()
    expect(page.get_by_test_id("graph-file-select")).to_be_visible()
    expect(page.get_by_test_id("graph-optimized")).to_be_visible()


def test_the_top_level_is_asked_for_once(page, server):
    asked = []
    page.on("request", lambda request: asked.append(request.url) if is_top_level(request.url) else None)
    open_graph(page, server)
    expect(page.get_by_test_id("graph-tree-node")).to_have_count(2, timeout=WAIT)
    page.wait_for_timeout(300)  # a late second request would show up here
    assert len(asked) == 1


def open_with_page_code_held(page, url: str, seen: list):
    """Opens ``url`` with the page's own code held back until ``seen`` fills (or 10 s pass);
    returns the held scripts, for ``release``."""
    held = hold_scripts(page, PAGE_CODE)
    page.goto(url)
    for _ in range(100):
        if held and seen:
            break
        page.wait_for_timeout(100)
    assert held, "the page's code was never asked for"
    return held


def test_the_layout_worker_starts_while_the_page_code_is_on_its_way(page, server):
    workers = []
    page.on("worker", lambda worker: workers.append(worker.url) if "elk" in worker.url else None)
    held = open_with_page_code_held(page, f"{server.url}/#/train-manage/graph?train_id={LENET}", workers)
    assert workers, "no layout worker started while the page's code was held"
    release(held)
    expect(page.get_by_test_id("graph-node")).to_have_count(2, timeout=WAIT)


# LeNet's top level: Default and Gradients as recorded; the optimized view folds Gradients away.
@pytest.mark.parametrize(("address", "mode", "drawn"), [("", "normal", 2), ("&optimized=1", "optimize", 1)])
def test_the_top_level_is_read_while_the_page_code_is_on_its_way(page, server, address, mode, drawn):
    """Once the job's tags are in, the top level of the graph the address opens (as recorded, or
    its readability-optimized view) is asked for before the page's code is in; the page takes
    that answer instead of asking again."""
    asked = []
    page.on("request", lambda request: asked.append(request.url) if is_top_level(request.url) else None)
    held = open_with_page_code_held(page, f"{server.url}/#/train-manage/graph?train_id={LENET}{address}", asked)
    assert len(asked) == 1, asked
    assert parse_qs(urlparse(asked[0]).query)["mode"] == [mode]
    release(held)
    expect(page.get_by_test_id("graph-node")).to_have_count(drawn, timeout=WAIT)
    if mode == "optimize":
        expect(page.get_by_test_id("graph-optimized").locator("input")).to_be_checked()
    page.wait_for_timeout(300)  # a late second request would show up here
    assert len(asked) == 1, asked


def test_the_top_level_is_drawn_before_the_layout_worker_is_in(page, server):
    """The top level alone, edges and their labels included, is laid out in the page; a scope
    opened then waits for the worker and is drawn open once it is in."""
    held = []
    page.route("**/elk-worker*.js", lambda route: held.append(route))
    open_graph(page, server)
    expect(page.get_by_test_id("graph-node")).to_have_count(2)
    expect(page.get_by_test_id("graph-edge")).to_have_count(2)
    expect(page.get_by_test_id("graph-edge-label")).to_have_count(2)
    assert held, "the layout worker's code was never asked for"

    cursor = "el => getComputedStyle(el).cursor"
    assert node(page, "Default").evaluate(cursor) == "pointer"
    node(page, "Default").dblclick()
    page.wait_for_timeout(500)
    expect(node(page, "Default")).not_to_have_attribute("data-expanded", "true")
    # Meanwhile the pointer tells that something is under way.
    assert node(page, "Default").evaluate(cursor) == "progress"
    assert page.get_by_test_id("graph-svg").evaluate(cursor) == "progress"
    for route in held:
        route.continue_()
    expect(node(page, "Default")).to_have_attribute("data-expanded", "true", timeout=WAIT)
    expect(page.get_by_test_id("graph-canvas-box")).to_have_attribute("data-loading", "false")
    assert page.get_by_test_id("graph-svg").evaluate(cursor) == "grab"
    expect(page.locator('[data-testid=graph-node][data-name^="Default/"]').first).to_be_visible()
