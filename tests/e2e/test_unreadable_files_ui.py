"""What the UI says when the server cannot read files (issue 17, section 3): the dashboard of a
job whose files are unreadable names each file and the reason instead of telling the user to
collect summary data; the lineage pages say why stored tags and remarks are set aside or refused.

The servers run with ``obey_file_modes``: as root they would read a ``chmod 000`` file anyway.
"""

import json
import os
import time
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from mindinsight.summary.writer import SummaryWriter
from tests.e2e.conftest import make_base
from tests.helpers.server import running_server

WAIT = 20_000
TEXTS = {
    "en-US": {
        "files": "This job has 2 files the server could not read",
        "collect": "collecting summary data",
        "empty": "it may be in the files of this job that cannot be read",
        "backed_up": "could not be parsed",
        "unreadable": "cannot be read (Permission denied)",
    },
    "zh-CN": {
        "files": "此训练作业有 2 个文件无法读取",
        "collect": "收集summary",
        "empty": "数据可能在此训练作业无法读取的文件中",
        "backed_up": "无法解析",
        "unreadable": "无法读取（Permission denied）",
    },
}


def write(job_dir, steps, timestamp) -> str:
    with SummaryWriter(job_dir, timestamp=timestamp) as writer:
        for step in steps:
            writer.add_scalar("loss", float(step), step, wall_time=1700000000.0 + step)
    return writer.path


def wait_until(predicate, timeout: float = 30):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met"
        time.sleep(0.2)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_a_job_whose_files_cannot_be_read_says_so(new_page, built_ui, tmp_path, locale):
    base = tmp_path / "base"
    paths = [write(base / "run", range(1, 6), timestamp=100), write(base / "run", range(6, 9), timestamp=200)]
    for path in paths:
        os.chmod(path, 0)
    with running_server(base, tmp_path / "ws", reload_interval=1, obey_file_modes=True) as server:

        def reported():
            items = server.get("/datavisual/train-jobs", params={"train_id": "./run"}).json()["train_jobs"]
            return len(items[0].get("unreadable_files", [])) == 2

        wait_until(reported)
        page = new_page(locale)
        page.goto(f"{server.url}/#/train-manage/training-dashboard?id={quote('./run', safe='./')}")
        notice = page.get_by_test_id("unreadable-files")
        expect(notice).to_contain_text(TEXTS[locale]["files"], timeout=WAIT)
        files = notice.get_by_test_id("unreadable-file")
        expect(files).to_have_count(2)
        for index, path in enumerate(paths):
            expect(files.nth(index)).to_contain_text(f"run/{os.path.basename(path)}")
            expect(files.nth(index)).to_contain_text("Permission denied")
        scalar = page.locator('[data-testid="dashboard-card"][data-kind="scalar"]')
        expect(scalar).to_have_attribute("data-state", "empty", timeout=WAIT)
        expect(scalar.get_by_test_id("card-state")).to_contain_text(TEXTS[locale]["empty"])
        expect(page.get_by_text(TEXTS[locale]["collect"])).to_have_count(0)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_lineage_page_says_why_tags_and_remarks_are_set_aside(new_page, built_ui, tmp_path, locale):
    base = make_base(tmp_path / "base", with_summary_ops=False, runs=1)
    store = tmp_path / "ws" / "lineage" / "added_info.json"
    store.parent.mkdir(parents=True)
    store.write_text(json.dumps({"./run1": {"remark": "kept"}})[:12])  # cut short
    with running_server(base, tmp_path / "ws") as server:
        page = new_page(locale)
        page.goto(f"{server.url}/#/model-traceback")
        notice = page.get_by_test_id("added-info-notice")
        expect(notice).to_have_attribute("data-status", "backed_up", timeout=WAIT)
        backup = next(store.parent.glob("added_info.json.damaged-*")).name
        expect(notice).to_contain_text(TEXTS[locale]["backed_up"])
        expect(notice).to_contain_text(f"lineage/{backup}")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_lineage_page_says_why_edits_are_refused(new_page, built_ui, tmp_path, locale):
    base = make_base(tmp_path / "base", with_summary_ops=False, runs=1)
    store = tmp_path / "ws" / "lineage" / "added_info.json"
    store.parent.mkdir(parents=True)
    store.write_text(json.dumps({"./run1": {"remark": "kept"}}))
    store.chmod(0)
    with running_server(base, tmp_path / "ws", obey_file_modes=True) as server:
        page = new_page(locale)
        new_page.problems.allow_http(500, "/lineagemgr/lineages")
        page.goto(f"{server.url}/#/model-traceback")
        notice = page.get_by_test_id("added-info-notice")
        expect(notice).to_have_attribute("data-status", "unreadable", timeout=WAIT)
        expect(notice).to_contain_text(TEXTS[locale]["unreadable"])
        page.get_by_test_id("remark-edit").first.click()
        page.get_by_test_id("remark-input").fill("would overwrite the store")
        page.get_by_test_id("remark-save").click()
        expect(page.locator(".save-error")).to_be_visible()
    assert json.loads(store.read_text()) == {"./run1": {"remark": "kept"}}
