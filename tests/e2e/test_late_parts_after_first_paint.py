"""What a page loads once its first chart is on screen (its pager, export, the Element parts of
its controls) is asked for after the frame that shows that chart, not in the task that draws it:
asking for a module starts a request per file, a few ms of the main thread each, and mounting
those parts takes longer still, all before the browser could show the chart.

Times are read in the page: the first animation frame in which the chart's canvas holds pixels
(the frame is drawn right after it), and when each request started and ended (Resource Timing).
Every script asked for once the page's data is in must be asked for after that frame.
"""

import pytest

JOB = "./b_summary_ops"

# Records the first animation frame in which a canvas under `selector` holds pixels.
FIRST_CHART_FRAME = """
((selector) => {
  const hasPixels = () => {
    for (const canvas of document.querySelectorAll(selector + ' canvas')) {
      if (!canvas.width || !canvas.height) continue
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data
      for (let i = 3; i < pixels.length; i += 4 * 7) if (pixels[i]) return true
    }
    return false
  }
  const frame = () => {
    if (hasPixels()) window.__chartFrameAt = performance.now()
    else requestAnimationFrame(frame)
  }
  requestAnimationFrame(frame)
})(%r)
"""
TIMES = """() => performance.getEntriesByType('resource').map((e) => [e.name, e.startTime, e.responseEnd])"""


@pytest.mark.parametrize(
    ("address", "chart", "data_read"),
    [
        (f"#/train-manage/scalar?train_id={JOB}", '[data-testid="scalar-chart"]', "/scalar/metadata?"),
        ("#/compare-analysis/scalar", '[data-testid="scalar-chart"]', "/datavisual/scalars?"),
        (f"#/train-manage/histogram?train_id={JOB}", '[data-testid="histogram-chart"]', "/datavisual/histograms?"),
        ("#/model-traceback", '[data-testid="parallel-chart"]', "/lineagemgr/lineages"),
    ],
)
def test_late_parts_are_asked_for_after_the_first_chart_is_shown(server, new_page, address, chart, data_read):
    page = new_page()
    page.add_init_script(FIRST_CHART_FRAME % chart)
    page.goto(f"{server.url}/{address}")
    page.wait_for_function("() => window.__chartFrameAt !== undefined")
    page.wait_for_load_state("networkidle")
    shown_at = page.evaluate("() => window.__chartFrameAt")
    entries = page.evaluate(TIMES)
    data_in = min((end for name, _, end in entries if data_read in name), default=None)
    assert data_in is not None, f"the page never asked for {data_read}"
    scripts = [(name, start) for name, start, _ in entries if name.endswith(".js") and start > data_in]
    assert scripts, "the page asked for no late part once its data was in"
    early = [(name.rsplit("/", 1)[-1], round(start)) for name, start in scripts if start < shown_at]
    assert not early, f"asked for before the frame showing the chart ({shown_at:.0f} ms): {early}"
