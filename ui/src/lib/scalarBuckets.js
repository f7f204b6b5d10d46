// Every point of a scalar tag, as the `scalar/buckets` answer gives it (one bucket per pixel
// column), turned into the points a chart draws. The 1,000-point sample of `scalar/metadata` may
// drop a one-step spike; a bucket's min and max never do, so the line goes through each bucket's
// first, min, max and last point in step order and both extremes of every column show.

/** The server's limit on `width` (MAX_SCALAR_BUCKETS in mindinsight/conf/limits.py). */
export const MAX_BUCKET_WIDTH = 8192

/**
 * The points to draw, as `scalar/metadata` rows (`{step, value, wall_time, non_finite?}`) in
 * step order, so they go through the same series code as the sampled points. A bucket's points
 * are real ones; one that is two of them (e.g. min = first) is listed once. A point's wall time
 * comes from `wallTimes` (step -> wall time of the sampled points) and is undefined when the
 * sample does not hold it: buckets carry no times.
 * @param {Array<import('../api/answers').ScalarBucket>} buckets
 * @param {Map<number, number>} [wallTimes]
 * @returns {Array<{step: number, value: number|null, wall_time: number|undefined, non_finite?: string}>}
 */
export function bucketPoints(buckets, wallTimes = new Map()) {
  const rows = []
  for (const bucket of Array.isArray(buckets) ? buckets : []) {
    const points = [bucket.first, bucket.min, bucket.max, bucket.last].filter(Boolean)
    points.sort((a, b) => a.step - b.step)
    let previous = null
    for (const point of points) {
      if (point.step === previous) continue
      previous = point.step
      const row = { step: point.step, value: point.value, wall_time: wallTimes.get(point.step) }
      if ('non_finite' in point && point.non_finite) row.non_finite = point.non_finite
      rows.push(row)
    }
  }
  return rows
}

/** Step -> wall time of the sampled points (`scalar/metadata` rows). */
export function wallTimesByStep(metadatas) {
  const times = new Map()
  for (const point of Array.isArray(metadatas) ? metadatas : []) times.set(Number(point.step), point.wall_time)
  return times
}

/**
 * The step range a chart shows: `{}` (the tag's whole range) unzoomed, else the whole steps
 * covering the zoom window's x range (on a step x axis: windows in time are not asked for).
 * @param {{x?: number[]|null}|null} zoom
 * @returns {{start?: number, end?: number}}
 */
export function bucketRange(zoom) {
  const x = zoom?.x
  if (!Array.isArray(x) || x.length !== 2 || !x.every(Number.isFinite)) return {}
  const [low, high] = x[0] <= x[1] ? x : [x[1], x[0]]
  return { start: Math.floor(low), end: Math.ceil(high) }
}

/**
 * A zoom window's points laid into the whole range's: those of `outer` before and after
 * `range` (so the line runs on to the window's edges and smoothing has its lead-in), `inner`
 * within it.
 * @template {{step: number}} Row
 * @param {Row[]} outer
 * @param {Row[]} inner
 * @param {{start?: number, end?: number}} range
 * @returns {Row[]}
 */
export function spliceWindow(outer, inner, { start = -Infinity, end = Infinity }) {
  return [...outer.filter((row) => row.step < start), ...inner, ...outer.filter((row) => row.step > end)]
}

/**
 * The sampled points and the buckets' points together, one row per step (the buckets' win a
 * tie). On a log step axis the buckets, one per pixel column of the linear step range, hold only
 * a few points of the first steps, which take most of the width there; the sample fills them in.
 * @template {{step: number}} Row
 * @param {Row[]} sample
 * @param {Row[]} rows
 * @returns {Row[]}
 */
export function unionByStep(sample, rows) {
  const byStep = new Map()
  for (const row of Array.isArray(sample) ? sample : []) byStep.set(Number(row.step), row)
  for (const row of rows) byStep.set(row.step, row)
  return [...byStep.values()]
}

/** Whether two answers (arrays of `scalar/buckets` answers, one per line) draw the same points. */
export function sameBuckets(a, b) {
  if (!a || !b || a.length !== b.length) return false
  const samePoint = (p, q) => p === q || (!!p && !!q && p.step === q.step && Object.is(p.value, q.value))
  return a.every((answer, index) => {
    const other = b[index]
    if (!answer || !other || answer.buckets.length !== other.buckets.length) return answer === other
    return answer.buckets.every((bucket, k) => {
      const twin = other.buckets[k]
      return ['first', 'min', 'max', 'last'].every((name) => samePoint(bucket[name], twin[name]))
    })
  })
}

/** The `width` to ask for a plot `pixels` wide: one bucket per whole pixel column, within the limit. */
export function bucketWidth(pixels) {
  const width = Math.round(Number(pixels) || 0)
  return Math.min(MAX_BUCKET_WIDTH, Math.max(1, width))
}
