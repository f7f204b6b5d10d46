"""A run written by tensorboardX, nested two levels below the base dir, drawn on the scalar page
(English and Chinese): its tags as written, its values as given (docs/FORMATS.md §8)."""

from urllib.parse import quote

import numpy as np
import pytest
from playwright.sync_api import expect
from tensorboardX import SummaryWriter

from tests.helpers.chart_lines import LINE_PAIRS_JS
from tests.helpers.server import running_server

RUN = "./exp/seed1"
TAGS = {"train/loss": [1.0 / (step + 1) for step in range(20)], "train/acc": [step / 20 for step in range(20)]}
RENDERED = '[data-testid="scalar-chart"][data-rendered="true"]'
WAIT_MS = 20_000
TITLE = {"en-US": "Scalar", "zh-CN": "标量"}


@pytest.fixture(scope="module")
def tb_server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("tb_e2e") / "base"
    with SummaryWriter(str(base / RUN[2:])) as writer:
        for tag, values in TAGS.items():
            for step, value in enumerate(values):
                writer.add_scalar(tag, value, step)
    with running_server(base, tmp_path_factory.mktemp("tb_e2e_ws"), reload_interval=3) as server:
        yield server


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_scalar_page_draws_a_tensorboardx_run(new_page, tb_server, locale):
    page = new_page(locale)
    encoded = quote(RUN, safe="")
    page.goto(f"{tb_server.url}/#/train-manage/scalar?train_id={encoded}&summaryPath={encoded}")
    expect(page.get_by_text(TITLE[locale], exact=True).first).to_be_visible(timeout=WAIT_MS)
    expect(page.locator(RENDERED)).to_have_count(len(TAGS), timeout=WAIT_MS)
    drawn = page.locator('[data-testid="scalar-chart"]').evaluate_all("els => els.map(e => e.dataset.tag)")
    assert sorted(drawn) == sorted(TAGS)
    for tag, values in TAGS.items():
        canvas = page.locator(f'[data-testid="scalar-chart"][data-tag="{tag}"] .chart-canvas')
        script = f"el => {LINE_PAIRS_JS}(el.miChart.getOption().series.find(s => s.id === 'smoothed-0').data)"
        points = canvas.evaluate(script)
        assert [point[0] for point in points] == list(range(len(values)))
        assert [point[1] for point in points] == [float(np.float32(value)) for value in values]
