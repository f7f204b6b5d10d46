// Threshold highlighting of scalar charts. A threshold is one or two strict conditions on the value
// ("less than" / "greater than" a number) joined by AND or OR:
//   { conditions: [{ op: 'lt' | 'gt', value: number }, ...1 or 2], logic: 'and' | 'or' }
// The parts of a curve whose values satisfy it are drawn red, as in the original's "Set Threshold".

export const THRESHOLD_STORAGE_KEY = 'thresholdCache'
const OPS = new Set(['lt', 'gt'])

/** A valid threshold built from `raw`, or null when it is not one. */
export function normalizeThreshold(raw) {
  if (!raw || typeof raw !== 'object' || !Array.isArray(raw.conditions)) return null
  const conditions = raw.conditions
    .filter((item) => item && OPS.has(item.op) && item.value !== '' && item.value !== null)
    .map((item) => ({ op: item.op, value: Number(item.value) }))
  if (conditions.length === 0 || conditions.length > 2 || conditions.some((item) => !Number.isFinite(item.value))) {
    return null
  }
  if (conditions.length === 1) return { conditions, logic: 'and' }
  const logic = raw.logic === 'or' ? 'or' : raw.logic === 'and' ? 'and' : null
  return logic ? { conditions, logic } : null
}

function satisfies({ op, value }, y) {
  return op === 'lt' ? y < value : y > value
}

/** Whether the value `y` lies inside the threshold (a highlighted value). Non-finite never does. */
export function inThreshold(threshold, y) {
  if (!threshold || !Number.isFinite(y)) return false
  const results = threshold.conditions.map((condition) => satisfies(condition, y))
  return threshold.logic === 'or' ? results.some(Boolean) : results.every(Boolean)
}

/** The open intervals of highlighted values, sorted and merged: [[low, high], ...] (±Infinity allowed). */
export function thresholdIntervals(threshold) {
  if (!threshold) return []
  const ranges = threshold.conditions.map(({ op, value }) => (op === 'lt' ? [-Infinity, value] : [value, Infinity]))
  if (threshold.logic !== 'or' || ranges.length === 1) {
    const low = Math.max(...ranges.map((range) => range[0]))
    const high = Math.min(...ranges.map((range) => range[1]))
    return low < high ? [[low, high]] : []
  }
  ranges.sort((a, b) => a[0] - b[0])
  const merged = []
  for (const range of ranges) {
    const last = merged[merged.length - 1]
    // (a, b) ∪ (c, d) with c < b is one interval; c == b leaves the single value b out.
    if (last && range[0] < last[1]) last[1] = Math.max(last[1], range[1])
    else merged.push([...range])
  }
  return merged
}

/** The threshold in interval notation, as the original shows it: "(-Infinity,0.5)", "(0.2,0.8)∪(1,Infinity)". */
export function describeThreshold(threshold) {
  if (!threshold) return '-'
  const intervals = thresholdIntervals(threshold)
  if (intervals.length === 0) return '∅'
  return intervals.map(([low, high]) => `(${low},${high})`).join('∪')
}

/** The threshold values drawn as dashed lines. */
export function thresholdLines(threshold) {
  return threshold ? [...new Set(threshold.conditions.map((item) => item.value))] : []
}

/**
 * The highlighted parts of a polyline, as ECharts line data: runs of [x, y] points separated by
 * null. A segment between two points that crosses a threshold value is cut exactly where it
 * crosses, so the red part starts and ends on the threshold line. Interpolation happens in the
 * space the chart draws in (`transform`, e.g. Math.log10 for a log axis, with its `inverse`).
 * @param {Array<[number, number|null]>} points sorted by x; null y = gap in the line
 * @returns {{data: Array<[number, number]|null>, matched: number[]}} `matched`: indices of points inside
 */
export function thresholdSegments(points, threshold, { transform = (y) => y, inverse = (u) => u } = {}) {
  const data = []
  const matched = []
  if (!threshold) return { data, matched }
  const cuts = thresholdLines(threshold)
  let open = false
  const addPoint = (x, y) => {
    const last = data[data.length - 1]
    if (open && last && last[0] === x && last[1] === y) return
    data.push([x, y])
    open = true
  }
  const close = () => {
    if (open) data.push(null)
    open = false
  }
  points.forEach(([x, y], index) => {
    const valid = Number.isFinite(y) && Number.isFinite(transform(y))
    if (valid && inThreshold(threshold, y)) matched.push(index)
    if (!valid) {
      close()
      return
    }
    const next = points[index + 1]
    const nextValid = next && Number.isFinite(next[1]) && Number.isFinite(transform(next[1]))
    if (!nextValid) {
      // Last point of a run of the line: a lone point inside is kept as a 1-point run.
      if (inThreshold(threshold, y)) addPoint(x, y)
      close()
      return
    }
    const [x1, y1] = next
    const u0 = transform(y)
    const u1 = transform(y1)
    const stops = [
      { f: 0, y },
      { f: 1, y: y1 },
    ]
    for (const cut of cuts) {
      if ((cut > y && cut < y1) || (cut < y && cut > y1)) stops.push({ f: (transform(cut) - u0) / (u1 - u0), y: cut })
    }
    stops.sort((a, b) => a.f - b.f)
    for (let k = 0; k + 1 < stops.length; k += 1) {
      const middle = inverse(u0 + ((stops[k].f + stops[k + 1].f) / 2) * (u1 - u0))
      if (inThreshold(threshold, middle)) {
        addPoint(x + stops[k].f * (x1 - x), stops[k].y)
        addPoint(x + stops[k + 1].f * (x1 - x), stops[k + 1].y)
      } else {
        close()
      }
    }
  })
  close()
  if (data[data.length - 1] === null) data.pop()
  return { data, matched }
}

function readCache(storage) {
  try {
    const parsed = JSON.parse(storage?.getItem(THRESHOLD_STORAGE_KEY) || '{}')
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {}
  } catch {
    return {}
  }
}

/** The saved thresholds of a train job: {tag: threshold} (kept in localStorage like the original). */
export function loadThresholds(storage, trainId) {
  const saved = readCache(storage)[trainId]
  const result = {}
  if (!saved || typeof saved !== 'object') return result
  for (const [tag, raw] of Object.entries(saved)) {
    const threshold = normalizeThreshold(raw)
    if (threshold) result[tag] = threshold
  }
  return result
}

/** Saves (or with threshold = null deletes) the threshold of `tags` of a job; returns the job's thresholds. */
export function saveThresholds(storage, trainId, tags, threshold) {
  const cache = readCache(storage)
  const job = { ...loadThresholds(storage, trainId) }
  for (const tag of tags) {
    if (threshold) job[tag] = threshold
    else delete job[tag]
  }
  if (Object.keys(job).length) cache[trainId] = job
  else delete cache[trainId]
  try {
    storage?.setItem(THRESHOLD_STORAGE_KEY, JSON.stringify(cache))
  } catch {
    // Storage full or disabled: the threshold still applies for this visit.
  }
  return job
}
