"""The model-lineage page on TensorBoard runs with hparams (English and Chinese): the sessions
``add_hparams`` of ``torch.utils.tensorboard`` wrote (tests/fixtures/tensorboard/hparams) are rows,
their hyper-parameters and metrics are columns of the table and axes of the parallel coordinates,
the optimization-objective panel ranks the hyper-parameters, and a remark and a tag edited on a
nested TensorBoard run are still there after a reload."""

import json
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.helpers.server import running_server

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tensorboard"
EXPECTED = json.loads((FIXTURES / "expected_hparams.json").read_text())
WAIT = 20_000
TITLE = {"en-US": "Model Lineage", "zh-CN": "模型溯源"}
OBJECTIVE = {"en-US": "Optimization objective", "zh-CN": "优化目标"}


@pytest.fixture(scope="module")
def hp_server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("hp_e2e") / "base"
    shutil.copytree(FIXTURES / "hparams", base)
    with running_server(base, tmp_path_factory.mktemp("hp_e2e_ws"), reload_interval=0) as server:
        server.base = base
        yield server


def sessions(base: Path) -> list[str]:
    """The train ids of the time-named sub-runs ``add_hparams`` wrote, one per run."""
    found = [path for run in EXPECTED for path in (base / run).iterdir() if path.is_dir()]
    return sorted("./" + path.relative_to(base).as_posix() for path in found)


def open_page(new_page, server, locale):
    page = new_page(locale)
    page.goto(f"{server.url}/#/model-traceback")
    expect(page.get_by_test_id("tab-model")).to_have_text(TITLE[locale])
    chart = page.get_by_test_id("parallel-chart")
    expect(chart).to_have_attribute("data-rendered", "true", timeout=WAIT)
    return page


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_hparams_are_columns_and_axes(new_page, hp_server, locale):
    page = open_page(new_page, hp_server, locale)
    expect(page.locator("[data-testid=row-path]")).to_have_count(len(EXPECTED), timeout=WAIT)
    assert sorted(page.get_by_test_id("row-path").all_inner_texts()) == sessions(hp_server.base)
    chart = page.get_by_test_id("parallel-chart")
    axes = chart.evaluate("el => el.__miChart.getOption().parallelAxis.map(axis => axis.id)")
    wanted = {"user_defined/lr", "user_defined/batch_size", "metric/hparam/accuracy", "metric/hparam/loss"}
    assert wanted <= set(axes)
    headers = page.locator(".el-table__header th").all_inner_texts()
    for label in ("[U]lr", "[U]batch_size", "[U]optimizer", "[M]hparam/accuracy", "[M]hparam/loss"):
        assert any(text.strip() == label for text in headers), (label, headers)
    # the values as add_hparams was given them, in the row of each session
    data = chart.evaluate("el => el.__miChart.getOption().series[0].data.length")
    assert data == len(EXPECTED)
    table = page.get_by_test_id("lineage-table")
    for given in EXPECTED.values():
        expect(table).to_contain_text(str(given["metrics"]["hparam/accuracy"]))


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_objective_panel_ranks_the_hparams(new_page, hp_server, locale):
    page = open_page(new_page, hp_server, locale)
    expect(page.get_by_test_id("target-panel")).to_contain_text(OBJECTIVE[locale])
    bars = page.get_by_test_id("importance-chart")
    expect(bars).to_have_attribute("data-rendered", "true", timeout=WAIT)
    names = bars.evaluate("el => el.__miChart.getOption().yAxis[0].data")
    assert sorted(names) == ["[U]batch_size", "[U]lr"]
    answer = hp_server.post("/optimizer/targets/search", json={}).json()
    shown = page.get_by_test_id("target-select").inner_text().strip()
    assert shown in ("[M]hparam/accuracy", "[M]hparam/loss"), shown
    assert {target["name"] for target in answer["targets"]} == {"[M]hparam/accuracy", "[M]hparam/loss"}


def test_remark_and_tag_of_a_tensorboard_run_persist(new_page, hp_server):
    page = open_page(new_page, hp_server, "en-US")
    page.get_by_test_id("remark-edit").first.click()
    page.get_by_test_id("remark-input").fill("tensorboard run")
    page.get_by_test_id("remark-save").click()
    expect(page.get_by_test_id("remark-text").first).to_have_text("tensorboard run")
    page.get_by_test_id("tag-button").first.click()
    page.locator("[data-testid=tag-4]:visible").click()
    expect(page.get_by_test_id("tag-mark").first).to_have_text("4")
    page.reload()
    expect(page.get_by_test_id("remark-text").first).to_have_text("tensorboard run", timeout=WAIT)
    expect(page.get_by_test_id("tag-mark").first).to_have_text("4")
    answer = hp_server.post("/lineagemgr/lineages", json={}).json()
    edited = [item for item in answer["object"] if item["added_info"]]
    assert len(edited) == 1 and edited[0]["summary_dir"] in sessions(hp_server.base)
    assert edited[0]["added_info"] == {"remark": "tensorboard run", "tag": 4}
