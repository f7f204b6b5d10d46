"""A dashboard card whose read fails says why, in the page's language (English and Chinese).

The texts of errors (``ui/src/lib/errors.js``) are not in the dashboard's first load: they come
with the first error. The failure is a refused connection for the image card's one request
(Playwright aborts it in the browser, as a dropped network would); every other request, that
code's own chunk included, reaches the real server.
"""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_dashboard import card, dashboard_url

TEXTS = {"en-US": "The MindInsight server could not be reached.", "zh-CN": "无法连接到 MindInsight 服务。"}


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_a_card_whose_read_fails_says_why(new_page, server, locale):
    page = new_page(locale)
    page.route("**/datavisual/image/metadata?**", lambda route: route.abort("connectionrefused"))
    page.goto(dashboard_url(server, "./b_summary_ops"))
    expect(card(page, "image").get_by_role("alert")).to_have_text(TEXTS[locale])
    # The other cards read and draw as ever.
    expect(page.locator('[data-testid="dashboard-scalar-chart"][data-rendered="true"]')).to_have_count(1)
    expect(card(page, "histogram").get_by_role("alert")).to_have_count(0)
