"""How the lineage pages come to their first drawing, in a real browser on 30 real MindSpore runs.

The parallel chart is drawn before the table, the query box (and the optimization objective's
panel) are built, stand-ins holding the query box's, column select's and buttons' places
meanwhile; the lineage is asked for as the route is entered, while the page's scripts still load,
and the page asks no second time.
"""

import re
import shutil

import pytest
from playwright.sync_api import expect

from tests.helpers.fixtures import FIXTURES
from tests.helpers.held_scripts import hold_scripts, release
from tests.helpers.server import running_server

RUNS = FIXTURES / "h_lineage_30_runs"
WAIT = 20_000
ROUTES = {"model": "#/model-traceback", "dataset": "#/data-traceback"}


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("lineage") / "summary_base"
    for run in sorted(RUNS.iterdir()):
        shutil.copytree(run, base / run.name)
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


# Notes the order in which the chart's canvas, the table and the objective's panel first appear.
ORDER_SCRIPT = """
window.__miOrder = {};
let seq = 0;
new MutationObserver(() => {
  seq += 1;
  const seen = {
    canvas: '[data-testid="parallel-chart"] canvas',
    table: '[data-testid="lineage-table"]',
    panel: '[data-testid="target-panel"]',
    query: '[data-testid="query-input"]',
  };
  for (const [name, selector] of Object.entries(seen))
    if (!(name in window.__miOrder) && document.querySelector(selector)) window.__miOrder[name] = seq;
}).observe(document, { childList: true, subtree: true });
"""


@pytest.mark.parametrize("kind", ["model", "dataset"])
def test_the_chart_is_drawn_before_the_table_is_built(new_page, server, kind):
    page = new_page("en-US")
    page.add_init_script(ORDER_SCRIPT)
    page.goto(f"{server.url}/{ROUTES[kind]}")
    expect(page.get_by_test_id("parallel-chart")).to_have_attribute("data-rendered", "true", timeout=WAIT)
    expect(page.get_by_test_id("lineage-table").locator("tbody tr").first).to_be_visible(timeout=WAIT)
    # The real controls replace the stand-ins.
    expect(page.get_by_test_id("column-select")).to_be_visible()
    expect(page.get_by_test_id("column-select-stand-in")).to_have_count(0)
    expect(page.get_by_test_id("download-csv")).to_be_enabled()
    order = page.evaluate("() => window.__miOrder")
    assert order["canvas"] < order["table"], order
    assert order["canvas"] < order["query"], order
    expect(page.get_by_test_id("query-box-stand-in")).to_have_count(0)
    if kind == "model":
        expect(page.get_by_test_id("target-panel")).to_be_visible(timeout=WAIT)
        expect(page.get_by_test_id("target-panel-stand-in")).to_have_count(0)
        order = page.evaluate("() => window.__miOrder")
        assert order["canvas"] < order["panel"], order


@pytest.mark.parametrize("kind", ["model", "dataset"])
def test_the_lineage_is_asked_for_while_the_page_scripts_load(new_page, server, kind):
    page = new_page("en-US")
    # The page's own script (the one naming its test id) waits until released below.
    held = hold_scripts(page, re.compile(f"{kind}-lineage-page".encode()))

    asked = []
    page.on(
        "request",
        lambda request: (
            "lineagemgr/lineages" in request.url and request.method == "POST" and asked.append(request.post_data_json)
        ),
    )
    with page.expect_request(lambda request: "lineagemgr/lineages" in request.url, timeout=WAIT):
        page.goto(f"{server.url}/{ROUTES[kind]}", wait_until="commit")
    # The request may go out before the page's script is even asked for (that is the point).
    for _ in range(WAIT // 100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the page's script was not held"
    assert asked == [{"lineage_type": {"in": [kind]}, "limit": 100, "offset": 0}]
    release(held)
    expect(page.get_by_test_id("parallel-chart")).to_have_attribute("data-rendered", "true", timeout=WAIT)
    assert page.get_by_test_id("parallel-chart").evaluate("el => el.__miChart.getOption().series[0].data.length") > 0
    # The page took the answer asked for early: no second request.
    assert len(asked) == 1, asked
