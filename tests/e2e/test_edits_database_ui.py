"""What the lineage page says when the database of edits (``--database-url``) cannot be reached
(issue 23, "Failures"): the rows are listed, the notice names the database and why, a remark
cannot be saved; once the database is back the notice goes and the remark is saved."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import make_base
from tests.helpers.postgres import running_postgres
from tests.helpers.server import running_server

WAIT = 20_000
TEXTS = {
    "en-US": {"unreachable": "the database postgresql://postgres@127.0.0.1", "refused": "editing is refused"},
    "zh-CN": {"unreachable": "无法使用数据库 postgresql://postgres@127.0.0.1", "refused": "无法编辑标签和备注"},
}


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_lineage_page_says_the_database_of_edits_is_unreachable(new_page, built_ui, tmp_path, locale):
    base = make_base(tmp_path / "base", with_summary_ops=False, runs=1)
    with running_postgres() as postgres:
        postgres.stop()
        options = ("--database-url", postgres.url)
        with running_server(base, tmp_path / "ws", reload_interval=1, options=options) as server:
            page = new_page(locale)
            new_page.problems.allow_http(503, "/lineagemgr/lineages")
            page.goto(f"{server.url}/#/model-traceback")
            notice = page.get_by_test_id("added-info-notice")
            expect(notice).to_have_attribute("data-status", "unreachable", timeout=WAIT)
            expect(notice).to_contain_text(TEXTS[locale]["unreachable"])
            expect(notice).to_contain_text(TEXTS[locale]["refused"])
            page.screenshot(path=str(tmp_path / f"unreachable-{locale}.png"))
            page.get_by_test_id("remark-edit").first.click()
            page.get_by_test_id("remark-input").fill("while the database is down")
            page.get_by_test_id("remark-save").click()
            expect(page.locator(".save-error")).to_be_visible()

            postgres.start()
            page.reload()
            expect(page.get_by_test_id("remark-edit").first).to_be_visible(timeout=WAIT)
            expect(page.get_by_test_id("added-info-notice")).to_have_count(0, timeout=WAIT)
