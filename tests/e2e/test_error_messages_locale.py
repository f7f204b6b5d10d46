"""A server error reads in the user's language: in Chinese the notice shows the Chinese text of the
error code, and the server's English details stay folded until asked for; in English they show."""

from urllib.parse import quote

import pytest
from playwright.sync_api import expect

SERVER_MESSAGE = "Train job is not exist."


@pytest.mark.parametrize(
    ("locale", "text", "detail_shown"),
    [("en-US", "The training job does not exist.", True), ("zh-CN", "训练作业不存在。", False)],
)
def test_the_notice_reads_in_the_users_language(new_page, server, locale, text, detail_shown):
    page = new_page(locale)
    new_page.problems.allow_http(400, "train_id=.%2Fno_such_job")
    page.goto(f"{server.url}/#/train-manage/training-dashboard?id={quote('./no_such_job', safe='./')}")
    notice = page.get_by_test_id("error-notice")
    expect(notice.locator(".message")).to_have_text(text)
    expect(notice).to_contain_text("50545005")
    if detail_shown:
        expect(notice.get_by_test_id("error-detail")).to_be_visible()
        assert SERVER_MESSAGE in notice.inner_text()
        return
    assert SERVER_MESSAGE not in notice.inner_text()
    # The details are still there for whoever asks.
    notice.get_by_test_id("error-detail-folded").locator("summary").click()
    expect(notice.get_by_test_id("error-detail")).to_be_visible()
    expect(notice.get_by_test_id("error-detail")).to_contain_text(SERVER_MESSAGE)
