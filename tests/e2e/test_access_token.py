"""The web address ``mindinsight start`` prints (``/?token=...``) as a user opens it: the page
works, the token leaves the address bar and the history at once, and the page keeps working
after a reload and on every route (the cookie carries the token from then on)."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import make_base
from tests.helpers.server import running_server

TOKEN = "e2e-Token_4f9Kq2xZ7mWp"


@pytest.fixture(scope="module")
def guarded(built_ui, tmp_path_factory):
    """A server on loopback that asks for a token."""
    base = make_base(tmp_path_factory.mktemp("token_e2e") / "summary_base", runs=1)
    with running_server(base, tmp_path_factory.mktemp("workspace"), token=TOKEN) as server:
        assert server.token == TOKEN
        yield server


def test_the_token_leaves_the_address_bar_and_the_page_keeps_working(page, guarded):
    page.goto(f"{guarded.url}/?token={TOKEN}#/summary-manage")
    rows = page.get_by_test_id("summary-row")
    expect(rows.first).to_be_visible()
    expect(page).to_have_url(f"{guarded.url}/#/summary-manage")
    assert TOKEN not in page.evaluate("location.href")
    # The new tab's about:blank and this page: the entry was replaced, so none holds the token.
    assert page.evaluate("history.length") == 2

    page.reload()
    expect(rows.first).to_be_visible()
    expect(rows).to_have_count(2)
    assert TOKEN not in page.url

    # Another route: the router's base is the address without the token.
    page.get_by_test_id("dashboard-link").first.click()
    expect(page).to_have_url(re.compile(r"/#/train-manage/training-dashboard\?"))
    assert page.url.startswith(f"{guarded.url}/#/") and TOKEN not in page.url
    page.go_back()
    expect(rows.first).to_be_visible()
    assert TOKEN not in page.url


def test_without_the_cookie_the_bare_address_is_refused(page, guarded):
    page.problems.allow_http(401, guarded.url)
    answer = page.goto(f"{guarded.url}/#/summary-manage")
    assert answer.status == 401
