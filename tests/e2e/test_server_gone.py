"""A page whose server goes away says so, in the page's language, instead of failing silently.

The dashboard loads its notice's code lazily, only when there is something to notice; once the
server is gone that code can no longer be fetched, so the page must have it by then.
"""

from playwright.sync_api import expect

from tests.e2e.conftest import make_base
from tests.e2e.test_ui_foundation import CARD, WAIT, dashboard_url
from tests.helpers.server import running_server


def test_dashboard_says_its_server_cannot_be_reached(page, built_ui, tmp_path):
    base = make_base(tmp_path / "base", runs=1)
    with running_server(base, tmp_path / "workspace") as server:
        page.goto(dashboard_url(server, "./b_summary_ops"))
        expect(page.locator(CARD).first).to_have_attribute("data-rendered", "true", timeout=WAIT)
        # Every card is shown (the page's own code all fetched) before the server goes.
        expect(page.locator('[data-testid="dashboard-card"][data-kind="image"]')).to_be_visible(timeout=WAIT)
        page.wait_for_load_state("networkidle")
        server.stop()

        page.get_by_test_id("refresh-button").click()
        notice = page.get_by_test_id("error-notice")
        expect(notice).to_contain_text("The MindInsight server could not be reached.", timeout=WAIT)
        expect(notice.get_by_role("button", name="Retry")).to_be_visible()
        # The charts read before stay on the page below the notice.
        expect(page.locator(CARD).first).to_be_visible()
