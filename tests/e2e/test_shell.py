"""The app shell as a new user meets it: the refresh-interval editor in the header, server
errors in the chosen language, and no sideways scrolling on a phone-sized screen."""

from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import TIMEOUT_MS

PHONE = {"width": 390, "height": 844}
RENDERED = '[data-testid$="scalar-chart"][data-rendered="true"]'  # dashboard or scalar page chart


def open_interval_editor(page):
    page.get_by_test_id("interval-edit").click()
    editor = page.get_by_test_id("interval-editor")
    expect(editor).to_be_visible()
    return editor


def test_interval_editor_opens_on_click_and_refuses_bad_input(page, server):
    page.goto(server.url + "/")
    expect(page.get_by_test_id("summary-row").first).to_be_visible()
    label = page.locator(".auto-refresh-label")
    expect(label).to_have_text("Auto Refresh (10 s)")

    editor = open_interval_editor(page)
    field = page.get_by_test_id("interval-input")
    expect(field).to_have_value("10")

    for typed, message in [
        ("abc", "digits only"),
        ("7.5", "digits only"),
        ("", "Enter the number"),
        ("2", "from 3 to 300"),
        ("301", "from 3 to 300"),
    ]:
        field.fill(typed)
        page.get_by_test_id("interval-apply").click()
        expect(page.get_by_test_id("interval-error")).to_contain_text(message)
        expect(field).to_have_attribute("aria-invalid", "true")
        expect(editor).to_be_visible()  # refused: the editor stays open, nothing was changed
        expect(label).to_have_text("Auto Refresh (10 s)")
    assert page.evaluate("localStorage.getItem('timeReloadValue')") in (None, "10")

    field.fill("15")
    expect(page.get_by_test_id("interval-error")).to_have_count(0)  # typing clears the message
    field.press("Enter")
    expect(editor).to_be_hidden()
    expect(label).to_have_text("Auto Refresh (15 s)")
    assert page.evaluate("localStorage.getItem('timeReloadValue')") == "15"

    # Opened again, it starts from the value in force, without the old message.
    open_interval_editor(page)
    expect(field).to_have_value("15")
    expect(page.get_by_test_id("interval-error")).to_have_count(0)
    page.get_by_test_id("interval-edit").click()  # the pencil closes it again
    expect(page.get_by_test_id("interval-editor")).to_be_hidden()


def test_interval_message_in_chinese(new_page, server):
    page = new_page("zh-CN")
    page.goto(server.url + "/")
    open_interval_editor(page)
    page.get_by_test_id("interval-input").fill("x")
    page.get_by_test_id("interval-apply").click()
    expect(page.get_by_test_id("interval-error")).to_have_text("请只输入数字：整数秒，例如 10。")


@pytest.mark.parametrize(
    ("locale", "text"), [("en-US", "The training job does not exist."), ("zh-CN", "训练作业不存在。")]
)
def test_server_error_in_the_users_language(new_page, server, locale, text):
    page = new_page(locale)
    new_page.problems.allow_http(400, "train_id=.%2Fno_such_job")
    page.goto(f"{server.url}/#/train-manage/training-dashboard?id={quote('./no_such_job', safe='./')}")
    notice = page.get_by_test_id("error-notice")
    expect(notice.locator(".message")).to_have_text(text)
    expect(notice).to_contain_text("50545005")
    # The server's own message keeps the details the translation leaves out.
    expect(notice.get_by_test_id("error-detail")).to_contain_text("Train job is not exist.")


def assert_no_sideways_scroll(page):
    widths = page.evaluate(
        "({doc: document.documentElement.scrollWidth, body: document.body.scrollWidth, view: window.innerWidth})"
    )
    assert widths["doc"] <= widths["view"] and widths["body"] <= widths["view"], widths


def phone_page(browser):
    context = browser.new_context(locale="en-US", viewport=PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    return context, context.new_page()


def test_phone_width_summary_list_and_dashboard_do_not_scroll_sideways(browser, server):
    context, page = phone_page(browser)
    try:
        page.goto(server.url + "/")
        expect(page.get_by_test_id("summary-row")).to_have_count(4, timeout=TIMEOUT_MS)
        assert_no_sideways_scroll(page)
        # The header's controls and the pager stay on the screen.
        for locator in (
            page.get_by_test_id("lang-en"),
            page.get_by_test_id("refresh-button"),
            page.locator(".el-pagination"),
        ):
            box = locator.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box

        page.get_by_test_id("summary-row").filter(has_text="./b_summary_ops").get_by_test_id("dashboard-link").click()
        expect(page.locator(RENDERED).first).to_be_visible(timeout=TIMEOUT_MS)
        assert_no_sideways_scroll(page)
        chart = page.locator(RENDERED).first.bounding_box()
        assert chart["x"] >= 0 and chart["x"] + chart["width"] <= PHONE["width"], chart
    finally:
        context.close()
