"""What a page loads once its first chart is on screen (its pager, export, the Element parts of
its controls) is asked for after the frame that shows that chart, not in the task that draws it:
asking for a module starts a request per file, a few ms of the main thread each, and mounting
those parts takes longer still, all before the browser could show the chart.

Times are read in the page: when the chart's canvas is put into the page (ECharts' code is in and
the chart is being made), the first animation frame in which it holds pixels (the frame is drawn
right after it), and when each script's request started (Resource Timing). Every script asked for
once the canvas is in must be asked for after that frame.
"""

import pytest

JOB = "./b_summary_ops"

# Records when a canvas under `selector` is first in the page, and the first animation frame in
# which one holds pixels.
FIRST_CHART_FRAME = """
((selector) => {
  new MutationObserver((_, observer) => {
    if (!document.querySelector(selector + ' canvas')) return
    window.__canvasAt = performance.now()
    observer.disconnect()
  }).observe(document, { subtree: true, childList: true })
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
STARTS = """() => performance.getEntriesByType('resource').map((e) => [e.name, e.startTime])"""


@pytest.mark.parametrize(
    ("address", "chart"),
    [
        (f"#/train-manage/scalar?train_id={JOB}", '[data-testid="scalar-chart"]'),
        ("#/compare-analysis/scalar", '[data-testid="scalar-chart"]'),
        (f"#/train-manage/histogram?train_id={JOB}", '[data-testid="histogram-chart"]'),
        ("#/model-traceback", '[data-testid="parallel-chart"]'),
        (f"#/train-manage/training-dashboard?id={JOB}", '[data-testid="dashboard-scalar-chart"]'),
    ],
)
def test_late_parts_are_asked_for_after_the_first_chart_is_shown(server, new_page, address, chart):
    page = new_page()
    page.add_init_script(FIRST_CHART_FRAME % chart)
    page.goto(f"{server.url}/{address}")
    page.wait_for_function("() => window.__chartFrameAt !== undefined")
    page.wait_for_load_state("networkidle")
    shown_at = page.evaluate("() => window.__chartFrameAt")
    canvas_at = page.evaluate("() => window.__canvasAt")
    scripts = [(name, start) for name, start in page.evaluate(STARTS) if name.endswith(".js") and start > canvas_at]
    assert scripts, "the page asked for no late part once its chart was being made"
    early = [(name.rsplit("/", 1)[-1], round(start)) for name, start in scripts if start < shown_at]
    assert not early, f"asked for before the frame showing the chart ({shown_at:.0f} ms): {early}"
