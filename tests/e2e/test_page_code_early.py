"""The code of the page an address opens is asked for as soon as the app's own code starts, before
the app is made and routes (ui/src/startPage.js): for the summary list (also from the bare address,
which the router sends there), the training dashboard, and the scalar page, which also waits for
the other pages' messages: those are asked for then too. The page's first reads go out then as
well: a job page reads its job (the train-jobs item and the tags) while its code is on its way,
and takes those answers instead of asking again.

Both times are read in the page: when Vue first puts the app's shell into ``#app`` (an init script
wraps ``insertBefore``, which Vue mounts with), and when the request for each script started
(Resource Timing). Scripts are told apart by their bytes: only the wanted chunk holds the text.
"""

import re
import time
from urllib.parse import parse_qs, quote, urlparse

import pytest
from playwright.sync_api import expect

from tests.helpers.held_scripts import hold_scripts, release

SHELL_INSERTED = """
(() => {
  const insertBefore = Node.prototype.insertBefore
  Node.prototype.insertBefore = function (node, anchor) {
    if (this.id === 'app' && window.__appMadeAt === undefined) window.__appMadeAt = performance.now()
    return insertBefore.call(this, node, anchor)
  }
})()
"""
JOB = quote("./b_summary_ops", safe="./")
PAGE_CODE = {
    "summary list": re.compile(rb"[`\"']summary-row[`\"']"),
    "dashboard": re.compile(rb"[`\"']dashboard-scalar-chart[`\"']"),
    "scalar page": re.compile(rb"[`\"']scalar-chart[`\"']"),
}
PAGE_MESSAGES = re.compile(rb"Open the scalar page from a training dashboard")
# The job's two reads (composables/jobData.js): its train-jobs item and its tags.
READ = re.compile(r"(?<=/datavisual/)(train-jobs|plugins)(?=\?.*train_id=)")


def script_starts(page, url: str, wanted: dict) -> tuple[float, dict]:
    """Opens `url`; when the app's shell went in, and when the first request of a script matching
    each of `wanted` (name -> pattern) started (ms from navigation; None if never asked for)."""
    matching = {name: [] for name in wanted}

    def seen(response):
        if "/static/" in response.url and response.url.endswith(".js"):
            body = response.body()
            for name, pattern in wanted.items():
                if pattern.search(body):
                    matching[name].append(response.url)

    page.add_init_script(SHELL_INSERTED)
    page.on("response", seen)
    page.goto(url)
    page.wait_for_function("() => window.__appMadeAt !== undefined")
    page.wait_for_load_state("networkidle")
    starts = page.evaluate(
        "() => Object.fromEntries(performance.getEntriesByType('resource').map((e) => [e.name, e.startTime]))"
    )
    first = {name: min((starts[u] for u in urls if u in starts), default=None) for name, urls in matching.items()}
    return page.evaluate("() => window.__appMadeAt"), first


@pytest.mark.parametrize(
    ("address", "page_name"),
    [
        ("", "summary list"),
        ("#/summary-manage", "summary list"),
        (f"#/train-manage/training-dashboard?id={JOB}", "dashboard"),
        (f"#/train-manage/scalar?train_id={JOB}", "scalar page"),
    ],
)
def test_the_page_code_is_asked_for_before_the_app_is_made(server, new_page, address, page_name):
    wanted = {page_name: PAGE_CODE[page_name]}
    if page_name == "scalar page":
        wanted["messages"] = PAGE_MESSAGES
    made_at, first = script_starts(new_page(), f"{server.url}/{address}", wanted)
    for name, started in first.items():
        assert started is not None, f"{name}: its script was never asked for"
        assert started < made_at, f"{name}: asked for at {started:.0f} ms, after the app was made ({made_at:.0f} ms)"


@pytest.mark.parametrize(
    ("address", "reads"),
    [
        (f"#/train-manage/scalar?train_id={JOB}", ["plugins", "train-jobs"]),
        (f"#/train-manage/training-dashboard?id={JOB}", ["plugins", "train-jobs"]),
        ("#/model-traceback", ["lineages"]),
        ("#/data-traceback", ["lineages"]),
        ("#/compare-analysis/scalar", ["train-jobs"]),
    ],
)
def test_the_first_reads_go_out_before_the_app_is_made(server, new_page, address, reads):
    """The opened page's first reads are sent as the app's code starts, not once the app is made."""
    page = new_page()
    page.add_init_script(SHELL_INSERTED)
    page.goto(f"{server.url}/{address}")
    page.wait_for_function("() => window.__appMadeAt !== undefined")
    page.wait_for_load_state("networkidle")
    made_at = page.evaluate("() => window.__appMadeAt")
    starts = page.evaluate("() => performance.getEntriesByType('resource').map((e) => [e.name, e.startTime])")
    first = {}
    for url, started in starts:
        match = re.search(r"/v1/mindinsight/[a-z-]+/([a-z-]+)(?:\?|$)", url)
        if match and match.group(1) not in first:
            first[match.group(1)] = started
    for read in reads:
        assert read in first, f"{read}: never asked for ({sorted(first)})"
        assert first[read] < made_at, (
            f"{read}: asked for at {first[read]:.0f} ms, after the app was made ({made_at:.0f} ms)"
        )


def test_the_dashboard_code_waits_on_the_summary_list(server, new_page):
    """Only the opened page's code comes early: the summary list does not fetch the dashboard's."""
    made_at, first = script_starts(new_page(), f"{server.url}/#/summary-manage", {"dashboard": PAGE_CODE["dashboard"]})
    assert first["dashboard"] is None or first["dashboard"] > made_at


@pytest.mark.parametrize(
    ("address", "held_code", "drawn"),
    [
        (f"#/train-manage/scalar?train_id={JOB}", PAGE_CODE["scalar page"], '[data-testid="scalar-chart"]'),
        (
            f"#/train-manage/training-dashboard?id={JOB}",
            PAGE_CODE["dashboard"],
            '[data-testid="dashboard-scalar-chart"]',
        ),
    ],
)
def test_the_job_is_read_while_the_page_code_is_on_its_way(server, new_page, address, held_code, drawn):
    """A job page's first reads (the job's train-jobs item and its tags) go out with its code, and
    the page takes their answers instead of asking again."""
    server.post("/datavisual/train-job-caches", json={"train_ids": ["./b_summary_ops"]})
    for _ in range(100):  # a job still loading is polled: that would be a second read of the page's own
        jobs = server.get("/datavisual/train-jobs", params={"offset": 0, "limit": 999}).json()["train_jobs"]
        if any(job["train_id"] == "./b_summary_ops" and job["cache_status"] == "CACHED" for job in jobs):
            break
        time.sleep(0.1)
    page = new_page()
    reads = []
    page.on("request", lambda request: READ.search(request.url) and reads.append(request.url))
    held = hold_scripts(page, held_code)
    page.goto(f"{server.url}/{address}")
    for _ in range(100):
        if held and len(reads) >= 2:
            break
        page.wait_for_timeout(100)
    assert held, "the page's code was never asked for"
    asked_while_held = sorted(READ.search(url).group(0) for url in reads)
    assert asked_while_held == ["plugins", "train-jobs"], reads
    release(held)
    expect(page.locator(drawn).first).to_be_visible()
    page.wait_for_timeout(500)
    assert sorted(READ.search(url).group(0) for url in reads) == ["plugins", "train-jobs"], reads


def test_a_page_the_app_moves_to_reads_its_job_while_its_code_is_on_its_way(server, new_page):
    """The router asks for a route's first reads as the app moves to it (here from the summary
    list to a training dashboard), before the page's code is in."""
    page = new_page()
    page.goto(f"{server.url}/#/summary-manage")
    row = page.locator('[data-testid="summary-row"][data-train-id="./b_summary_ops"]')
    expect(row).to_be_visible()
    reads = []
    page.on("request", lambda request: READ.search(request.url) and reads.append(request.url))
    held = hold_scripts(page, PAGE_CODE["dashboard"])
    row.get_by_test_id("dashboard-link").click()
    for _ in range(100):
        if held and len(reads) >= 2:
            break
        page.wait_for_timeout(100)
    assert held, "the dashboard's code was never asked for"
    assert sorted(READ.search(url).group(0) for url in reads) == ["plugins", "train-jobs"], reads
    release(held)
    expect(page.locator('[data-testid="dashboard-scalar-chart"]').first).to_be_visible()


# Per page (its route): its plugin, the read of one chart's or card's data, its code (told by a
# test id of its cards), and what it draws.
TAG_READS = {
    "scalar": ("scalar", r"/datavisual/scalar/metadata\?", "scalar-chart", '[data-testid="scalar-chart"]'),
    "histogram": ("histogram", r"/datavisual/histograms\?", "histogram-chart", '[data-testid="histogram-chart"]'),
    "tensor": ("tensor", r"/datavisual/tensors\?", "tensor-card", '[data-testid="tensor-cell"]'),
}


def job_tags(server) -> dict[str, list[str]]:
    server.post("/datavisual/train-job-caches", json={"train_ids": ["./b_summary_ops"]})
    for _ in range(100):
        answer = server.get("/datavisual/plugins", params={"train_id": "./b_summary_ops", "manual_update": "true"})
        jobs = server.get("/datavisual/train-jobs", params={"offset": 0, "limit": 1, "train_id": "./b_summary_ops"})
        if jobs.json()["train_jobs"][0]["cache_status"] == "CACHED":
            return answer.json()["plugins"]
        time.sleep(0.1)
    raise AssertionError("the job was never cached")


@pytest.mark.parametrize(
    ("route", "chooser", "first_cards"),
    [
        ("scalar", "", slice(0, 6)),
        ("scalar", "&filter=loss", slice(0, 0)),
        ("scalar", "&xaxis=relative", slice(0, 0)),
        ("scalar", "&tag={last}", slice(0, 0)),
        ("histogram", "", slice(0, 6)),
        ("histogram", "&filter=fc", slice(0, 0)),
        ("tensor", "", slice(0, 6)),
    ],
)
def test_a_page_reads_its_first_cards_data_while_its_code_is_on_its_way(server, new_page, route, chooser, first_cards):
    """Once the job's tags are in, the data of the charts or cards a page opens with (the first six
    tags of its plugin, in the job's order) is read before the page's code is in, and the page
    takes those answers instead of asking again. An address that chooses the charts or their axis
    (a filter, an original bookmark's tag) leaves that to the page."""
    plugin, read_pattern, card, drawn = TAG_READS[route]
    read = re.compile(read_pattern)
    tags = job_tags(server)[plugin]
    assert len(tags) >= 2
    page = new_page()
    # No auto refresh: its re-read of the job (and of every chart) would count as a second read.
    page.add_init_script("localStorage.setItem('isTimeReload', 'false')")
    asked = []
    page.on("request", lambda request: read.search(request.url) and asked.append(request.url))
    held = hold_scripts(page, re.compile(rb"[`\"']" + card.encode() + rb"[`\"']"))
    address = f"#/train-manage/{route}?train_id={JOB}{chooser.format(last=quote(tags[-1], safe=''))}"
    with page.expect_response(lambda response: "/datavisual/plugins?" in response.url):
        page.goto(f"{server.url}/{address}")
    expected = tags[first_cards]
    for _ in range(50):  # the reads go out as soon as the job's tags are in
        if held and len(asked) >= len(expected) and expected:
            break
        page.wait_for_timeout(100 if expected else 20)
    assert held, "the page's code was never asked for"
    assert [parse_qs(urlparse(url).query)["tag"][0] for url in asked] == expected, asked
    release(held)
    expect(page.locator(drawn).first).to_be_visible()
    if expected:  # the page took the early answers: none of those reads went out again
        page.wait_for_timeout(500)
        assert len(set(asked)) == len(asked), asked
