"""The dashboard inside a notebook page: the HTML ``%mindinsight`` shows, in Debian's chromium.

A small HTTP server on loopback stands for Jupyter (none runs here) and serves a page that puts
that HTML in place as Jupyter does: as ``innerHTML``, then each script run anew. Served from
loopback, any port, a page may frame the server (its Content-Security-Policy says so), and on
``localhost`` the frame is on ``localhost`` too, so the dashboard is not a third-party frame
whose storage the browser refuses. A page of another site (a name chromium is told resolves to
127.0.0.1) may not frame it.
"""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest

from mindinsight.notebook import frame_html
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

OTHER_SITE = "notebook.example"


@pytest.fixture(scope="module")
def notebook_port(server):
    """The port of a loopback HTTP server whose every page is a notebook showing ``server``."""
    output = json.dumps(frame_html(server.url)).replace("</", "<\\/")
    body = f"""<!doctype html><html><body><h1>Notebook</h1><div id="output"></div><script>
const output = document.getElementById("output");
output.innerHTML = {output};
for (const inert of output.querySelectorAll("script")) {{
  const script = document.createElement("script");
  script.textContent = inert.textContent;
  inert.replaceWith(script);
}}
</script></body></html>""".encode()

    class NotebookPage(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    jupyter = ThreadingHTTPServer(("127.0.0.1", 0), NotebookPage)
    threading.Thread(target=jupyter.serve_forever, daemon=True).start()
    yield jupyter.server_address[1]
    jupyter.shutdown()
    jupyter.server_close()


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1"])
def test_notebook_on_loopback_shows_the_dashboard(new_page, server, notebook_port, host):
    page = new_page("en-US")
    dashboard_loads = []
    page.on("request", lambda request: request.is_navigation_request() and dashboard_loads.append(request.url))
    page.goto(f"http://{host}:{notebook_port}/notebook")
    page.frame_locator("iframe").get_by_test_id("summary-row").filter(has_text="./b_summary_ops").wait_for()
    frame = next(frame for frame in page.frames if frame != page.main_frame)
    assert (urlsplit(frame.url).hostname, urlsplit(frame.url).port) == (host, server.port)
    # Loaded once, on the page's host: not first from 127.0.0.1, then sent on mid-load.
    assert [url for url in dashboard_loads if urlsplit(url).port == server.port] == [f"http://{host}:{server.port}/"]
    link = page.get_by_role("link", name="Open MindInsight in a new tab").get_attribute("href")
    assert link.startswith(f"http://{host}:{server.port}")


def test_page_of_another_site_may_not_frame_the_dashboard(browser, server, notebook_port):
    args = [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {OTHER_SITE} 127.0.0.1"]
    resolving = browser.browser_type.launch(executable_path=str(CHROMIUM), args=args)
    try:
        page = resolving.new_page()
        refusals = []
        page.on("console", lambda message: "frame-ancestors" in message.text and refusals.append(message.text))
        page.goto(f"http://{OTHER_SITE}:{notebook_port}/notebook")
        page.get_by_role("heading", name="Notebook").wait_for()
        page.wait_for_timeout(1000)
        assert refusals, "the browser framed the dashboard into another site's page"
        assert page.frame_locator("iframe").get_by_test_id("summary-row").count() == 0
    finally:
        resolving.close()
