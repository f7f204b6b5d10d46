"""The Export control of the scalar page and the scalars comparison page, in a real browser
(English and Chinese): choosing a format downloads a file that holds every point our writer wrote
of the shown trainings x tags (3,000 points a tag, past the 1,000-point sample the charts read),
with the exact values."""

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import expect

from mindinsight.summary.writer import SummaryWriter
from tests.e2e.test_scalar_page import scalar_url
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

RUNS = ("./run_a", "./run_b")
STEPS = 3_000
TEXTS = {
    "en-US": {"export": "Export", "started": "Download started: scalars.{format}"},
    "zh-CN": {"export": "导出", "started": "已开始下载：scalars.{format}"},
}


def written(run: str) -> dict:
    """``{tag: (values, wall_times)}`` of one run."""
    seed = RUNS.index(run)
    rng = np.random.default_rng(seed)
    wall_times = 1_700_000_000 + np.arange(1, STEPS + 1) * 0.5 + seed
    return {
        "loss/scalar": (rng.normal(1, 0.3, STEPS).astype(np.float32), wall_times),
        "lr/scalar": ((0.1 / np.arange(1, STEPS + 1)).astype(np.float32), wall_times),
    }


@pytest.fixture(scope="module")
def export_server(built_ui, tmp_path_factory):
    root = tmp_path_factory.mktemp("export_page")
    for run in RUNS:
        series = written(run)
        with SummaryWriter(root / "base" / run[2:]) as writer:
            for index in range(STEPS):
                values = {tag[: -len("/scalar")]: float(values[index]) for tag, (values, _) in series.items()}
                writer.add_values(index + 1, values, wall_time=float(series["loss/scalar"][1][index]))
    with running_server(root / "base", root / "ws", reload_interval=1) as server:
        wait_for(lambda: server.get("/datavisual/scalars/export", params={"train_id": list(RUNS)}).ok, timeout=60)
        yield server


def rows_of(path: Path, fmt: str) -> list[tuple]:
    if fmt == "csv":
        with open(path, newline="") as stream:
            reader = csv.reader(stream)
            assert next(reader) == ["run", "tag", "step", "wall_time", "value"]
            return [tuple(row) for row in reader]
    return [(i["run"], i["tag"], i["step"], i["wall_time"], i["value"]) for i in json.loads(path.read_text())]


def assert_every_point(rows, runs):
    assert {(row[0], row[1]) for row in rows} == {(run, tag) for run in runs for tag in written(run)}
    for run in runs:
        for tag, (values, wall_times) in written(run).items():
            got = [row for row in rows if row[0] == run and row[1] == tag]
            assert [int(row[2]) for row in got] == list(range(1, STEPS + 1))
            assert np.array_equal(np.array([float(row[3]) for row in got]), wall_times)
            assert np.array_equal(np.array([np.float32(row[4]) for row in got]), values)


def export(page, locale: str, fmt: str) -> Path:
    button = page.get_by_test_id("scalar-export")
    expect(button).to_contain_text(TEXTS[locale]["export"])
    button.click()
    with page.expect_download() as info:
        page.get_by_test_id(f"scalar-export-{fmt}").click()
    download = info.value
    assert download.suggested_filename == f"scalars.{fmt}"
    expect(page.get_by_test_id("scalar-export-message")).to_have_text(TEXTS[locale]["started"].format(format=fmt))
    return Path(download.path())


@pytest.mark.parametrize("locale, fmt", [("en-US", "csv"), ("zh-CN", "json")])
def test_scalar_page_exports_every_point(export_server, new_page, locale, fmt):
    page = new_page(locale)
    page.goto(scalar_url(export_server, RUNS[0]))
    assert_every_point(rows_of(export(page, locale, fmt), fmt), RUNS[:1])


@pytest.mark.parametrize("locale, fmt", [("en-US", "json"), ("zh-CN", "csv")])
def test_comparison_page_exports_the_chosen_runs(export_server, new_page, locale, fmt):
    page = new_page(locale)
    page.goto(f"{export_server.url}/#/compare-analysis/scalar?runs=.%2Frun_a,.%2Frun_b")
    assert_every_point(rows_of(export(page, locale, fmt), fmt), RUNS)
