"""The scalars comparison of many runs in a real browser: 100 trainings written by our writer in
one chart, each in its own colour (readable on the dark theme too) that it keeps when others go;
runs grouped by a regular expression on their names and by a hyper-parameter (TensorBoard hparams
sessions), each group drawn as its mean or median with a band; the grouping kept in the URL."""

import math
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.test_dashboard import hash_route
from tests.helpers.chart_lines import LINE_PAIRS_JS
from tests.helpers.run_sweep import (
    HPARAMS_SEEDS,
    SWEEP_TAG,
    hparams_loss,
    sweep_loss,
    write_hparams_sweep,
    write_sweep,
)
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

WAIT = 60_000
SURFACES = {"light": "#ffffff", "dark": "#2a2a2b"}
GROUP_TEXTS = {"en-US": "3 runs", "zh-CN": "3 个训练"}


@pytest.fixture(scope="module")
def sweep_server(built_ui, tmp_path_factory):
    """100 jobs of our writer (cfg0..4 x seed00..19, 1,000 steps of loss) and 6 hparams runs."""
    base = tmp_path_factory.mktemp("sweep_e2e")
    ids = write_sweep(base, configs=5, seeds=20, points=1000)
    hp_ids = write_hparams_sweep(base)
    with running_server(base, tmp_path_factory.mktemp("sweep_e2e_ws"), reload_interval=3) as server:
        server.ids, server.hp_ids = ids, hp_ids
        yield server


def compare_url(server, runs, **query) -> str:
    params = {"runs": ",".join(runs), **query}
    text = "&".join(f"{name}={quote(value, safe='')}" for name, value in params.items())
    return f"{server.url}/#/compare-analysis/scalar?{text}"


def wait_chart(page, testid: str, tag: str, condition: str):
    """Waits until the chart's option satisfies `condition` (JS over `option`), returns nothing."""
    page.wait_for_function(
        f"""() => {{
            const el = document.querySelector('[data-testid={testid}][data-tag="{tag}"]')
            const chart = el && [...el.querySelectorAll('*')].map(n => n.miChart).find(Boolean)
            const option = chart && chart.getOption()
            return Boolean(option && el.dataset.rendered === 'true' && ({condition}))
        }}""",
        timeout=WAIT,
    )


def chart_value(page, testid: str, tag: str, expression: str):
    return page.locator(f'[data-testid={testid}][data-tag="{tag}"]').evaluate(
        f"""el => {{
            const option = [...el.querySelectorAll('*')].map(n => n.miChart).find(Boolean).getOption()
            return {expression}
        }}"""
    )


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


RUN_LINES = "option.series.filter(s => String(s.id).startsWith('smoothed-'))"


@pytest.mark.parametrize("locale, theme", [("en-US", "light"), ("zh-CN", "dark")])
def test_a_hundred_runs_in_one_chart_each_keeping_its_colour(new_page, sweep_server, locale, theme):
    page = new_page(locale)
    page.add_init_script("localStorage.setItem('isTimeReload', 'false')")  # no refresh mid-check
    if theme == "dark":
        page.add_init_script("localStorage.setItem('miTheme', '1')")
    runs = sweep_server.ids
    page.goto(compare_url(sweep_server, runs))
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    wait_chart(page, "scalar-chart", SWEEP_TAG, f"{RUN_LINES}.length === 100")
    first_points = f"{RUN_LINES}.map(s => [s.name, s.lineStyle.color, {LINE_PAIRS_JS}(s.data)[0]])"
    drawn = chart_value(page, "scalar-chart", SWEEP_TAG, first_points)
    colours = {name: colour for name, colour, _ in drawn}
    assert set(colours) == set(runs)
    assert len(set(colours.values())) == 100
    # Beyond the chart theme's five, every colour stands out from the chart's background.
    assert min(contrast(colour, SURFACES[theme]) for colour in list(colours.values())[5:]) >= 3
    first = {name: point for name, _, point in drawn}
    assert first["./cfg3_seed07"][0] == 1
    assert first["./cfg3_seed07"][1] == pytest.approx(sweep_loss(3, 7, 1), rel=1e-6)

    # Without cfg0_seed00 (the URL as the picker writes it), every other run keeps its colour.
    page.goto(compare_url(sweep_server, runs[1:]))
    wait_chart(page, "scalar-chart", SWEEP_TAG, f"{RUN_LINES}.length === 99")
    after = dict(chart_value(page, "scalar-chart", SWEEP_TAG, f"{RUN_LINES}.map(s => [s.name, s.lineStyle.color])"))
    assert after == {run: colours[run] for run in runs[1:]}


def test_opening_a_hundred_runs_sends_one_tags_request_not_a_hundred(page, sweep_server):
    """The 100 runs' tags come with the train-jobs list; one train-job-caches request marks them
    all as used (no `plugins` request per run), and their series come in one compact answer."""
    ids = sweep_server.ids
    sweep_server.post("/datavisual/train-job-caches", json={"train_ids": ids}).raise_for_status()

    def all_read():
        jobs = sweep_server.get("/datavisual/train-jobs", params={"limit": 200}).json()["train_jobs"]
        return {job["train_id"] for job in jobs if job["cache_status"] == "CACHED"} >= set(ids)

    wait_for(all_read, timeout=120, interval=0.5)
    page.add_init_script("localStorage.setItem('isTimeReload', 'false')")  # no refresh mid-count
    sent = []
    page.on("request", lambda request: "/datavisual/" in request.url and sent.append(request))
    page.goto(compare_url(sweep_server, sweep_server.ids))
    wait_chart(page, "scalar-chart", SWEEP_TAG, f"{RUN_LINES}.length === 100")
    paths = [urlsplit(request.url).path.rsplit("/datavisual/", 1)[1] for request in sent]
    # The list of the newest 100 jobs (the server holds 106), and one query for the named runs
    # it lacks: never one train-jobs request per run.
    lists = [parse_qs(urlsplit(request.url).query) for request in sent if "/datavisual/train-jobs?" in request.url]
    assert len(lists) == 2 and not any("train_id" in query for query in lists), lists
    assert "plugins" not in paths, paths
    touched = [request.post_data_json["train_ids"] for request in sent if request.url.endswith("/train-job-caches")]
    assert len(touched) == 1 and sorted(touched[0]) == sorted(sweep_server.ids), paths
    scalars = [parse_qs(urlsplit(request.url).query) for request in sent if "/datavisual/scalars?" in request.url]
    assert len(scalars) == 1 and scalars[0]["compact"] == ["true"], paths
    assert sorted(scalars[0]["train_id"]) == sorted(sweep_server.ids)


def group_curves(page, tag: str) -> dict:
    """{group label: {center: [[step, centre]], low: [[step, low]], height: [[step, high - low]]}}."""
    return chart_value(
        page,
        "group-chart",
        tag,
        """Object.fromEntries(option.series.filter(s => String(s.id).startsWith('center-')).map(s => {
            const index = String(s.id).slice(7)
            const low = option.series.find(o => o.id === 'band-low-' + index).data
            const height = option.series.find(o => o.id === 'band-' + index).data
            return [s.name, {center: s.data, low, height}]
        }))""",
    )


def test_runs_grouped_by_a_regular_expression_draw_each_config_with_its_band(page, sweep_server):
    # "_seed[0-9]+" is stripped from each name: the 20 seeds of a config are one group.
    page.goto(compare_url(sweep_server, sweep_server.ids, group="regex:_seed[0-9]+", band="minmax"))
    wait_chart(
        page, "group-chart", SWEEP_TAG, "option.series.filter(s => String(s.id).startsWith('center-')).length === 5"
    )
    curves = group_curves(page, SWEEP_TAG)
    assert sorted(curves) == [f"./cfg{config}" for config in range(5)]
    cfg2 = curves["./cfg2"]
    step, centre = cfg2["center"][0]
    assert step == 1
    seeds = [sweep_loss(2, seed, 1) for seed in range(20)]
    assert centre == pytest.approx(sum(seeds) / 20, rel=1e-6)
    assert cfg2["low"][0][1] == pytest.approx(min(seeds), rel=1e-6)
    assert cfg2["height"][0][1] == pytest.approx(max(seeds) - min(seeds), rel=1e-6)
    expect(page.get_by_test_id("group-legend")).to_have_count(5)
    expect(page.get_by_test_id("group-regex")).to_have_value("_seed[0-9]+")


def choose(page, testid: str, value: str):
    page.get_by_test_id(testid).click()
    page.locator(f'.el-select-dropdown__item[data-value="{value}"]:visible').click()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_grouping_by_a_hyper_parameter_is_chosen_drawn_and_restored_from_the_url(new_page, sweep_server, locale):
    page = new_page(locale)
    page.goto(compare_url(sweep_server, sweep_server.hp_ids))
    wait_chart(page, "scalar-chart", "loss", f"{RUN_LINES}.length === 6")

    choose(page, "group-by", "hparam:lr")
    page.wait_for_function("() => decodeURIComponent(location.hash).includes('group=hparam:lr')")
    wait_chart(
        page, "group-chart", "loss", "option.series.filter(s => String(s.id).startsWith('center-')).length === 2"
    )
    curves = group_curves(page, "loss")
    assert sorted(curves) == ["lr = 0.01", "lr = 0.1"]
    for lr in (0.1, 0.01):
        curve = curves[f"lr = {lr}"]
        values = [hparams_loss(lr, seed, 10) for seed in HPARAMS_SEEDS]
        mean = sum(values) / 3
        std = math.sqrt(sum((value - mean) ** 2 for value in values) / 2)  # 0.1
        assert curve["center"][9] == [10, pytest.approx(mean, rel=1e-6)]
        assert curve["low"][9][1] == pytest.approx(mean - std, rel=1e-6)
        assert curve["height"][9][1] == pytest.approx(2 * std, rel=1e-6)
    expect(page.get_by_test_id("group-legend").first).to_contain_text(GROUP_TEXTS[locale])

    choose(page, "group-aggregate", "median")
    choose(page, "group-band", "minmax")
    page.wait_for_function("() => location.hash.includes('agg=median') && location.hash.includes('band=minmax')")
    query = hash_route(page.url)[1]
    assert query["group"] == "hparam:lr" and query["agg"] == "median" and query["band"] == "minmax"

    page.reload()
    wait_chart(
        page, "group-chart", "loss", "option.series.filter(s => String(s.id).startsWith('center-')).length === 2"
    )
    expect(page.get_by_test_id("group-by")).to_have_attribute("data-value", "hparam:lr")
    curve = group_curves(page, "loss")["lr = 0.1"]
    values = [hparams_loss(0.1, seed, 10) for seed in HPARAMS_SEEDS]
    assert curve["center"][9] == [10, pytest.approx(values[1], rel=1e-6)]  # the median of three
    assert curve["low"][9][1] == pytest.approx(min(values), rel=1e-6)
    assert curve["height"][9][1] == pytest.approx(max(values) - min(values), rel=1e-6)
