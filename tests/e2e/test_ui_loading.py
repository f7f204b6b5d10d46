"""How the UI loads: the summary list page fetches no chart library code, and static files come
precompressed, cached by name (content-hashed files for a year, index.html revalidated)."""

from playwright.sync_api import expect

from tests.e2e.conftest import TIMEOUT_MS

# A string ECharts' code carries (its inner-property prefix), in whichever chunk the bundler puts it.
ECHARTS_MARKER = b"ec_inner"
# Files this small get no compressed copy at build time (vite.config.js, threshold).
COMPRESS_THRESHOLD = 1024


def scripts_loaded(page) -> dict:
    """url -> decoded body of every JavaScript file the page fetches from now on."""
    bodies = {}

    def keep(response):
        if response.request.resource_type == "script" and response.ok:
            bodies[response.url] = response.body()

    page.on("response", keep)
    return bodies


def test_summary_list_loads_no_chart_library(page, server, built_ui):
    scripts = scripts_loaded(page)
    page.goto(server.url + "/#/summary-manage")
    expect(page.get_by_test_id("summary-row")).to_have_count(4, timeout=TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    assert scripts, "no script seen"
    with_charts = [url for url, body in scripts.items() if ECHARTS_MARKER in body]
    assert with_charts == []

    # The marker does find ECharts: the build holds it, in chunks the list did not load.
    static = built_ui.parent / "static"
    assert any(ECHARTS_MARKER in path.read_bytes() for path in static.glob("*.js"))


def test_static_files_are_compressed_and_cached_by_name(page, server):
    answers = {}
    page.on("response", lambda response: answers.setdefault(response.url, response))
    page.goto(server.url + "/")
    expect(page.get_by_test_id("summary-row")).to_have_count(4, timeout=TIMEOUT_MS)

    index = answers[server.url + "/"]
    assert index.all_headers()["cache-control"] == "no-cache"
    statics = {url: answer for url, answer in answers.items() if "/static/" in url}
    scripts = [url for url in statics if url.endswith(".js")]
    assert scripts
    compressed = 0
    for url in scripts:
        headers = statics[url].all_headers()
        assert "accept-encoding" in headers.get("vary", "").lower(), (url, headers)
        if len(statics[url].body()) > COMPRESS_THRESHOLD:
            assert headers.get("content-encoding") in ("br", "gzip"), (url, headers)
            compressed += 1
        assert headers["cache-control"] == "public, max-age=31536000, immutable", (url, headers)
    assert compressed, "no script large enough to be compressed"
