"""The pages a plain reverse proxy broke, in a real browser through the README's nginx block.

Chromium uses that nginx as its HTTP proxy and opens the README's public address
(``http://mindinsight.example.com``): nginx picks the block by that name, rewrites ``Host`` to
MindInsight's loopback address and sends no ``X-Forwarded-Host``, exactly as in production. The
pages' POSTs that only read (lineage, optimization objective, parameter details, comparison)
must be answered, also when the proxy is reached under another name than the trusted one (here
its bare address), and a remark saved from the public origin (``--trusted-origin``) stored.
"""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import TIMEOUT_MS, PageProblems, make_base
from tests.helpers.nginx import public_origin, readme_setup, running_nginx
from tests.helpers.server import running_server

WAIT = 20_000


@pytest.fixture(scope="module")
def proxied(built_ui, tmp_path_factory):
    """``(nginx address, public origin, server)``."""
    block, options = readme_setup()
    base = make_base(tmp_path_factory.mktemp("proxied") / "summary_base")
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0, options=options) as server:
        with running_nginx(block, server.port, tmp_path_factory.mktemp("nginx")) as proxy:
            yield proxy, public_origin(block), server


@pytest.fixture
def open_page(browser, proxied):
    """``open_page(public)``: a page opening the public address (nginx as the browser's HTTP
    proxy) or, with ``public=False``, nginx's own address (an origin nobody declared); and the
    address to open."""
    proxy, public, _ = proxied
    contexts, problems = [], PageProblems()

    def make(public_name: bool = True):
        options = {"proxy": {"server": proxy}} if public_name else {}
        context = browser.new_context(locale="en-US", viewport={"width": 1440, "height": 900}, **options)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        problems.watch(page)
        return page, public if public_name else proxy

    yield make
    for context in contexts:
        context.close()
    assert not problems.problems, "\n".join(problems.problems)


@pytest.mark.parametrize("public_name", [True, False], ids=["public-name", "another-name"])
def test_model_lineage_and_its_objective_panel_load(open_page, public_name):
    page, address = open_page(public_name)
    responses = []
    page.on("response", lambda response: responses.append((response.request.method, response.url, response.status)))
    # The objective panel's search is answered after the panel shows its title: wait for it.
    with page.expect_response(lambda response: response.url.endswith("/optimizer/targets/search"), timeout=WAIT):
        page.goto(f"{address}/#/model-traceback?sort=summary_dir&order=ascending")
        chart = page.get_by_test_id("parallel-chart")
        expect(chart).to_have_attribute("data-rendered", "true", timeout=WAIT)
        expect(page.get_by_test_id("row-path")).to_have_count(3)
        expect(page.get_by_test_id("target-panel")).to_contain_text("Optimization objective")
    searches = [entry for entry in responses if entry[0] == "POST"]
    assert {url.split("/v1/mindinsight/")[1] for _, url, _ in searches} >= {
        "lineagemgr/lineages",
        "optimizer/targets/search",
    }
    assert all(url.startswith(address + "/") and status == 200 for _, url, status in searches)


def test_a_remark_is_stored_from_the_public_address(open_page, proxied):
    page, public = open_page()
    page.goto(f"{public}/#/model-traceback?sort=summary_dir&order=ascending")
    expect(page.get_by_test_id("row-path")).to_have_count(3, timeout=WAIT)
    page.get_by_test_id("remark-edit").first.click()
    page.get_by_test_id("remark-input").fill("saved through nginx")
    page.get_by_test_id("remark-save").click()
    expect(page.get_by_test_id("remark-text").first).to_have_text("saved through nginx")
    stored = proxied[2].post("/lineagemgr/lineages", json={"summary_dir": {"in": ["./run1"]}}).json()
    assert stored["object"][0]["added_info"]["remark"] == "saved through nginx"


def test_dataset_lineage_loads(open_page):
    page, address = open_page(public_name=False)
    page.goto(f"{address}/#/data-traceback")
    expect(page.get_by_test_id("row-path")).to_have_count(3, timeout=WAIT)


def test_parameter_details_and_the_comparison_load(open_page):
    page, address = open_page(public_name=False)
    page.goto(f"{address}/#/summary-manage")
    row = page.locator('[data-testid=summary-row][data-train-id="./run1"]')
    row.get_by_test_id("parameter-details-link").click()
    table = page.get_by_test_id("parameter-table")
    expect(table.locator(".el-table__body tr").first).to_be_visible(timeout=WAIT)
    page.goto(f"{address}/#/compare-analysis/scalar?train_id=./run1&train_id=./run2")
    chart = page.locator('[data-testid="scalar-chart"][data-tag="loss/auto/scalar"]')
    expect(chart).to_have_attribute("data-rendered", "true", timeout=WAIT)
