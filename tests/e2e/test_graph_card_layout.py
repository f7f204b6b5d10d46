"""The dashboard's graph card lays out the top level in the page, without the graph page's layout
worker (ELK, some 430 KB gzip); the graph page still uses it. a_lenet_collector holds LeNet's graph.
"""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_graph_page import LENET, WAIT
from tests.helpers.fixtures import copy_job
from tests.helpers.server import running_server


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("graph_card") / "summary_base"
    copy_job("a_lenet_collector", base / "a_lenet_collector")
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def test_graph_card_draws_without_the_layout_worker(page, server):
    workers, scripts = [], []
    page.on("worker", lambda worker: workers.append(worker.url))
    page.on("request", lambda request: scripts.append(request.url) if request.url.endswith(".js") else None)

    page.goto(f"{server.url}/#/train-manage/training-dashboard?id={LENET}")
    card = page.locator('[data-testid=dashboard-card][data-kind="graph"]')
    expect(card).to_have_attribute("data-state", "ready", timeout=WAIT)
    expect(card.locator("[data-testid=graph-node]")).to_have_count(2)
    expect(card.locator("[data-testid=graph-edge]")).to_have_count(2)
    expect(card.locator("[data-testid=graph-edge-label]")).to_have_count(2)
    # Every node and edge inside the card's drawing.
    canvas = card.get_by_test_id("graph-card-canvas").bounding_box()
    for item in card.locator("[data-testid=graph-node], [data-testid=graph-edge]").all():
        box = item.bounding_box()
        assert canvas["x"] <= box["x"] and box["x"] + box["width"] <= canvas["x"] + canvas["width"]
        assert canvas["y"] <= box["y"] and box["y"] + box["height"] <= canvas["y"] + canvas["height"]
    page.wait_for_timeout(500)  # a late worker would show up here
    assert workers == []
    assert not [url for url in scripts if "elk" in url]

    # The graph page, opened from the card, lays out with ELK in a worker.
    card.get_by_test_id("card-link").click()
    expect(page.get_by_test_id("graph-page").locator("[data-testid=graph-node]").first).to_be_visible(timeout=WAIT)
    assert [url for url in workers if "elk" in url]
