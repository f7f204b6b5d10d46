"""The comparison pages' tabs in a real browser, as the original's "Scalar Comparison | Loss Graph
Comparison": the summary list's "Comparison Analysis" opens the scalar comparison, its loss tab
opens the loss comparison with the same trainings chosen, and the scalar tab leads back.

The module's server (tests/e2e/conftest.py) holds b_summary_ops and run1..run3.
"""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_dashboard import hash_route

WAIT = 20_000
TEXTS = {
    "en-US": {"scalar": "Scalar Comparison", "loss": "Loss Graph Comparison", "comparison": "Comparison Analysis"},
    "zh-CN": {"scalar": "标量对比", "loss": "损失函数图形对比", "comparison": "对比分析"},
}


def tabs_state(page) -> dict[str, str | None]:
    tabs = page.get_by_test_id("compare-tabs")
    expect(tabs).to_be_visible(timeout=WAIT)
    return {
        name: tabs.get_by_test_id(f"compare-tab-{name}").get_attribute("aria-current") for name in ("scalar", "loss")
    }


def chosen_scalar_runs(page) -> list[str]:
    options = page.locator("[data-testid=run-option]")
    expect(options.first).to_be_visible(timeout=WAIT)
    return options.evaluate_all("els => els.filter(el => el.querySelector('input').checked).map(el => el.dataset.run)")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_tabs_switch_between_scalar_and_loss_comparison_keeping_the_runs(new_page, server, locale):
    texts = TEXTS[locale]
    page = new_page(locale)
    page.goto(f"{server.url}/#/summary-manage")
    link = page.get_by_test_id("comparison-analysis")
    expect(link).to_have_text(texts["comparison"])
    link.click()

    # The scalar comparison, its tab the current one, both tabs named as the original's.
    expect(page.get_by_test_id("compare-scalar-page")).to_be_visible()
    assert hash_route(page.url)[0] == "/compare-analysis/scalar"
    expect(page.get_by_test_id("compare-tab-scalar")).to_have_text(texts["scalar"])
    expect(page.get_by_test_id("compare-tab-loss")).to_have_text(texts["loss"])
    assert tabs_state(page) == {"scalar": "page", "loss": None}

    # Dropping run1 and ./b_summary_ops leaves run2 and run3 chosen.
    for run in ("./run1", "./b_summary_ops"):
        page.locator(f'[data-testid=run-option][data-run="{run}"]').click()
        expect(page.locator(f'[data-testid=run-option][data-run="{run}"] input')).not_to_be_checked()
    page.wait_for_function("() => decodeURIComponent(location.hash).includes('runs=')")
    chosen = chosen_scalar_runs(page)
    assert sorted(chosen) == ["./run2", "./run3"]

    # The loss tab opens the loss comparison with the same trainings.
    page.get_by_test_id("compare-tab-loss").click()
    expect(page.get_by_test_id("loss-compare-page")).to_be_visible(timeout=WAIT)
    path, query = hash_route(page.url)
    assert path == "/compare-analysis/loss"
    assert sorted(query["runs"].split(",")) == ["./run2", "./run3"]
    assert tabs_state(page) == {"scalar": None, "loss": "page"}
    panels = page.get_by_test_id("landscape-panel")
    expect(panels).to_have_count(2, timeout=WAIT)
    assert sorted(panels.evaluate_all("els => els.map(el => el.dataset.run)")) == ["./run2", "./run3"]
    checked = page.locator("[data-testid=landscape-run-option]").evaluate_all(
        "els => els.filter(el => el.querySelector('input').checked).map(el => el.dataset.run)"
    )
    assert sorted(checked) == ["./run2", "./run3"]

    # The scalar tab leads back, still with run2 and run3.
    page.get_by_test_id("compare-tab-scalar").click()
    expect(page.get_by_test_id("compare-scalar-page")).to_be_visible(timeout=WAIT)
    assert hash_route(page.url)[0] == "/compare-analysis/scalar"
    assert tabs_state(page) == {"scalar": "page", "loss": None}
    expect(page.locator('[data-testid=run-option][data-run="./run1"] input')).not_to_be_checked()
    assert sorted(chosen_scalar_runs(page)) == ["./run2", "./run3"]


def test_loss_tab_keeps_at_most_three_runs_and_the_default_stays_the_default(page, server):
    # Four trainings chosen on the scalar page: the loss page (at most three) takes the first three.
    runs = "./b_summary_ops,./run1,./run2,./run3"
    page.goto(f"{server.url}/#/compare-analysis/scalar?runs={runs}")
    expect(page.get_by_test_id("compare-tab-loss")).to_be_visible(timeout=WAIT)
    page.get_by_test_id("compare-tab-loss").click()
    expect(page.get_by_test_id("loss-compare-page")).to_be_visible(timeout=WAIT)
    assert hash_route(page.url)[1]["runs"] == "./b_summary_ops,./run1,./run2"

    # Without a choice in the URL the other page opens on its own default (no `runs`).
    page.goto(f"{server.url}/#/compare-analysis/loss")
    expect(page.get_by_test_id("compare-tab-scalar")).to_be_visible(timeout=WAIT)
    page.get_by_test_id("compare-tab-scalar").click()
    expect(page.get_by_test_id("compare-scalar-page")).to_be_visible(timeout=WAIT)
    path, query = hash_route(page.url)
    assert path == "/compare-analysis/scalar" and "runs" not in query
