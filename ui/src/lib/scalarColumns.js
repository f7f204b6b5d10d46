// The compact datavisual/scalars answer (`compact=true`: each series as columns) back into the
// points the charts read, the same objects the original's answer holds.

/**
 * The `{wall_time, step, value, non_finite?}` points of one compact series.
 * @param {{steps: number[], values: (number|null)[], wall_times: number[], non_finite?: Record<string, string>}} series
 */
export function columnPoints(series) {
  const steps = Array.isArray(series?.steps) ? series.steps : []
  const values = Array.isArray(series?.values) ? series.values : []
  const wallTimes = Array.isArray(series?.wall_times) ? series.wall_times : []
  const points = new Array(steps.length)
  for (let index = 0; index < steps.length; index += 1) {
    points[index] = { wall_time: wallTimes[index], step: steps[index], value: values[index] ?? null }
  }
  for (const [index, kind] of Object.entries(series?.non_finite || {})) {
    if (points[Number(index)]) points[Number(index)].non_finite = kind
  }
  return points
}
