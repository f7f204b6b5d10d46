// The tensor page's histogram view draws the same distribution chart as the parameter
// distribution page. The tensors endpoint (`detail=histogram`) sends every retained step as
// `{wall_time, step, value: {histogram_buckets: [[left, width, count], ...]}}`; the chart takes
// the histograms endpoint's `{wall_time, step, buckets}`.

/** Steps of a tensor tag in the histograms endpoint's shape, ascending by step. */
export function tensorHistograms(values) {
  if (!Array.isArray(values)) return []
  return values
    .filter((entry) => Array.isArray(entry?.value?.histogram_buckets))
    .map((entry) => ({ wall_time: entry.wall_time, step: entry.step, buckets: entry.value.histogram_buckets }))
    .sort((a, b) => a.step - b.step)
}
