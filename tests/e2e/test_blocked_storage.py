"""The UI with the browser's storage blocked: reading window.localStorage or sessionStorage throws a
SecurityError (a cross-site frame with third-party storage blocked, some private modes). The app
still starts; the summary list, the dashboard and the scalar page work, and a preference chosen
lasts for the page's life."""

from playwright.sync_api import expect

from tests.e2e.test_dashboard import card, dashboard_url, wait_for_cards
from tests.e2e.test_scalar_page import RENDERED, WAIT_MS, scalar_url

# What Chromium does when storage is denied: the getter itself throws.
BLOCK_STORAGE = """
for (const name of ['localStorage', 'sessionStorage']) {
  Object.defineProperty(window, name, {
    configurable: true,
    get() {
      throw new DOMException(`Failed to read the '${name}' property from 'Window'`, 'SecurityError')
    },
  })
}
"""
READ_STORAGE = """() => ['localStorage', 'sessionStorage'].map((name) => {
  try { return typeof window[name] } catch (error) { return error.name }
})"""


def blocked_page(new_page):
    page = new_page("en-US")
    page.add_init_script(BLOCK_STORAGE)
    return page


def test_summary_list_and_dashboard_work_with_storage_blocked(new_page, server):
    page = blocked_page(new_page)
    page.goto(server.url + "/")
    assert page.evaluate(READ_STORAGE) == ["SecurityError", "SecurityError"]
    expect(page.get_by_test_id("summary-row")).to_have_count(4)
    expect(page.get_by_test_id("dashboard-link")).to_have_count(4)

    page.get_by_test_id("summary-row").filter(has_text="b_summary_ops").get_by_test_id("dashboard-link").click()
    wait_for_cards(page)
    expect(card(page, "graph").get_by_test_id("graph-card-canvas")).to_be_visible(timeout=WAIT_MS)

    # The theme chosen is kept in memory: it lasts while the page does (here, to the scalar page).
    html = page.locator("html")
    page.get_by_test_id("theme-select").select_option(label="Dark Theme")
    expect(html).to_have_attribute("data-theme", "dark")
    page.evaluate("url => { location.hash = new URL(url).hash }", scalar_url(server))
    expect(page.locator(RENDERED).first).to_be_visible(timeout=WAIT_MS)
    expect(html).to_have_attribute("data-theme", "dark")


def test_scalar_page_works_with_storage_blocked(new_page, server):
    page = blocked_page(new_page)
    page.goto(scalar_url(server))
    assert page.evaluate(READ_STORAGE) == ["SecurityError", "SecurityError"]
    expect(page.locator('[data-testid="scalar-chart"]')).to_have_count(6, timeout=WAIT_MS)
    expect(page.locator(RENDERED)).to_have_count(6, timeout=WAIT_MS)


def test_dashboard_opened_directly_works_with_storage_blocked(new_page, server):
    page = blocked_page(new_page)
    page.goto(dashboard_url(server, "./b_summary_ops"))
    wait_for_cards(page)
    expect(card(page, "graph").get_by_test_id("graph-card-canvas")).to_be_visible(timeout=WAIT_MS)
