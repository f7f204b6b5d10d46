"""The summary list says when the server's scan of the base dir stopped at its limit
(``MAX_SCAN_COUNT`` entries), in English and Chinese."""

import pytest
from playwright.sync_api import expect

from mindinsight.conf.limits import MAX_SCAN_COUNT
from tests.helpers.server import running_server


@pytest.fixture(scope="module")
def crowded_server(built_ui, tmp_path_factory):
    """A base dir with one entry more than a scan reads: empty directories only."""
    base = tmp_path_factory.mktemp("crowded")
    for index in range(MAX_SCAN_COUNT + 1):
        (base / f"dir_{index:05d}").mkdir()
    with running_server(base, tmp_path_factory.mktemp("crowded_ws"), reload_interval=3) as running:
        yield running


@pytest.mark.parametrize(
    ("locale", "text"),
    [
        ("en-US", f"the scan stopped after {MAX_SCAN_COUNT:,} entries"),
        ("zh-CN", f"扫描在读取 {MAX_SCAN_COUNT:,} 个条目后停止"),
    ],
)
def test_the_list_says_the_scan_stopped(new_page, crowded_server, locale, text):
    page = new_page(locale)
    page.goto(crowded_server.url + "/")
    notice = page.get_by_test_id("scan-stopped")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(text)
