"""Reading what a scalar chart draws, in the browser tests.

The scalar charts hand ECharts each line as one flat typed array ``[x0, y0, x1, y1, ...]``
(``ui/src/lib/scalarChartOption.js``, ``xyPairs``); ``LINE_PAIRS_JS`` is a JavaScript function
that turns a series' ``data`` back into ``[x, y]`` pairs, a gap (NaN) as null, and leaves any
other ``data`` (a threshold's, an ECharts card's arrays) as it is.
"""

LINE_PAIRS_JS = (
    "(d => ArrayBuffer.isView(d) ? Array.from({length: d.length / 2},"
    " (_, i) => [d[2 * i], Number.isNaN(d[2 * i + 1]) ? null : d[2 * i + 1]]) : d)"
)
