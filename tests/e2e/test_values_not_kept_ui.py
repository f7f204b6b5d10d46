"""The training dashboard names the values a run holds and the server does not keep (train-jobs'
``unshown_values`` and ``dropped_values``): kinds not shown, by plugin and tag, and values refused,
with the reason in the page's language; a card left empty by them says so. A run without such values shows no notice."""

from urllib.parse import quote

import pytest
from playwright.sync_api import expect
from tensorboardX import SummaryWriter

from tests.helpers import kinds_not_kept
from tests.helpers.server import running_server

WAIT = 20_000
TEXTS = {
    "en-US": {
        "unshown": "This job also holds values of kinds MindInsight does not show",
        "dropped": "These values were left out while reading",
        "counts": ["1 value", "2 values", "2 values", "2 values", "3 values"],
        "left_out": "the values of this kind were left out while reading",
        "reason": "histogram over {bytes} bytes",
    },
    "zh-CN": {
        "unshown": "此训练作业还包含 MindInsight 不展示的数据类型",
        "dropped": "以下数据在读取时未保留",
        "counts": ["1 个值", "2 个值", "2 个值", "2 个值", "3 个值"],
        "left_out": "此类数据在读取时未保留",
        "reason": "直方图超过 {bytes} 字节",
    },
}


def dashboard(server, train_id: str) -> str:
    return f"{server.url}/#/train-manage/training-dashboard?id={quote(train_id, safe='./')}"


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_values_not_kept_are_named_on_the_dashboard(new_page, built_ui, tmp_path, locale):
    base = tmp_path / "base"
    kinds_not_kept.write_run(str(base / "other_kinds"))
    with SummaryWriter(str(base / "plain")) as writer:
        writer.add_scalar("loss", 0.5, 0)
    with running_server(base, tmp_path / "ws", reload_interval=0) as server:
        page = new_page(locale)
        page.goto(dashboard(server, "./other_kinds"))
        expect(page.locator('[data-testid="dashboard-scalar-chart"] canvas')).to_have_count(1, timeout=WAIT)
        notice = page.get_by_test_id("values-not-kept")
        expect(notice).to_contain_text(TEXTS[locale]["unshown"], timeout=WAIT)
        unshown = notice.get_by_test_id("unshown-value")
        expect(unshown).to_have_count(len(kinds_not_kept.UNSHOWN))
        for index, (entry, count) in enumerate(zip(kinds_not_kept.UNSHOWN, TEXTS[locale]["counts"])):
            expect(unshown.nth(index)).to_contain_text(entry["plugin"])
            expect(unshown.nth(index)).to_contain_text(entry["tag"])
            expect(unshown.nth(index)).to_contain_text(count)
        expect(notice).to_contain_text(TEXTS[locale]["dropped"])
        (dropped,) = kinds_not_kept.DROPPED
        item = notice.get_by_test_id("dropped-value")
        expect(item).to_have_count(1)
        expect(item).to_contain_text(dropped["tag"])
        # the reason in the page's language, from its code and arguments
        expect(item).to_contain_text(TEXTS[locale]["reason"].format(**dropped["reason_args"]))
        # the histogram card, empty because its one tag was refused, says so instead of how to collect
        histogram = page.locator('[data-testid="dashboard-card"][data-kind="histogram"]')
        expect(histogram.get_by_test_id("card-left-out")).to_contain_text(TEXTS[locale]["left_out"])
        tensor = page.locator('[data-testid="dashboard-card"][data-kind="tensor"]')
        expect(tensor).to_have_attribute("data-state", "empty")
        expect(tensor.get_by_test_id("card-left-out")).to_have_count(0)  # nothing of it was refused

        page.goto(dashboard(server, "./plain"))
        expect(page.locator('[data-testid="dashboard-scalar-chart"] canvas')).to_have_count(1, timeout=WAIT)
        page.wait_for_timeout(500)  # the notice would come once the other pages' messages are in
        expect(page.get_by_test_id("values-not-kept")).to_have_count(0)
        expect(page.get_by_test_id("card-left-out")).to_have_count(0)
