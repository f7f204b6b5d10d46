// A line series' flat `[x0, y0, x1, y1, ...]` data (scalarChartOption.js xyPairs) back as
// `[x, y]` pairs, a gap (NaN) as null: what the tests compare.
export function linePairs(data) {
  return Array.from({ length: data.length / 2 }, (_, index) => [
    data[2 * index],
    Number.isNaN(data[2 * index + 1]) ? null : data[2 * index + 1],
  ])
}
