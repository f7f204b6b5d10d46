"""A summary list read from an object store says, in the page's language, when the store cannot
be read, and keeps the trainings read before; the notice goes once the store answers again."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import make_base
from tests.e2e.test_ui_foundation import WAIT
from tests.helpers.s3_server import running_s3_server
from tests.helpers.server import running_server

BUCKET = "dashboard-logs"
NOTICES = {
    "en-US": "The storage holding the summary logs cannot be read now",
    "zh-CN": "当前无法读取存放训练日志的存储",
}


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_summary_list_says_the_store_cannot_be_read(new_page, built_ui, tmp_path, locale):
    base = make_base(tmp_path / "base", runs=1)
    with running_s3_server(tmp_path / "moto") as s3:
        s3.create_bucket(BUCKET)
        s3.upload_tree(base, BUCKET, "logs")
        url = f"s3://{BUCKET}/logs"
        with running_server(url, tmp_path / "workspace", reload_interval=1, env=s3.env()) as server:
            page = new_page(locale)
            page.goto(server.url + "/")
            rows = page.get_by_test_id("summary-row")
            expect(rows).to_have_count(2, timeout=WAIT)
            expect(page.get_by_test_id("storage-error")).to_have_count(0)

            s3.stop()
            notice = page.get_by_test_id("storage-error")
            for _ in range(30):  # the list is read again on refresh until the server has noticed
                page.get_by_test_id("refresh-button").click()
                if notice.count():
                    break
                page.wait_for_timeout(500)
            expect(notice).to_contain_text(NOTICES[locale], timeout=WAIT)
            expect(notice).to_contain_text("s3://dashboard-logs/logs")
            expect(rows).to_have_count(2)  # the trainings read before stay listed

            s3.start()  # moto comes back empty: what the store held is uploaded again
            s3.restore()
            for _ in range(60):  # a listing taken while the objects were going up may show fewer
                page.get_by_test_id("refresh-button").click()
                if not notice.count() and rows.count() == 2:
                    break
                page.wait_for_timeout(500)
            expect(notice).to_have_count(0)
            expect(rows).to_have_count(2)
