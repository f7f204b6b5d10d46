// The smoothing methods of scalar curves, one weight 0..0.99 (the slider) for all of them:
//   ema            exponential moving average with debiasing, as TensorBoard and the original
//                  MindInsight smooth: last = last * w + (1 - w) * v, shown = last / (1 - w^k)
//                  where k counts the finite values seen so far (without the debias term the
//                  curve would start near 0). Each point counts the same, wherever it lies.
//   time-ema       the same average with the weight decaying with the step distance: a point
//                  `d` units after the previous one is averaged in with w^d, so points drawn
//                  closer together (buckets around a spike) or further apart (a sample of a long
//                  run) pull the curve exactly as much as the steps they stand for.
//   moving-average centred moving average: the mean of the finite values within w / (1 - w)
//                  units on either side of a point's step, a window of (1 + w) / (1 - w) units,
//                  the span an EMA of weight w averages over.
// A unit is one step, or 1/1000 of the steps of the longest line when they are more, so one
// slider position smooths a long run as much as a short one (see smoothingUnit).
// Non-finite values (null, NaN, ±Infinity) are not drawn and do not move any average.

export const MIN_SMOOTHING = 0
export const MAX_SMOOTHING = 0.99
export const SMOOTHING_METHODS = ['ema', 'time-ema', 'moving-average']
export const DEFAULT_SMOOTHING_METHOD = 'ema'
// Steps per unit grow past this many steps, so the unit stays 1/UNITS_PER_RANGE of the range.
const UNITS_PER_RANGE = 1000

/** A smoothing weight from any input, clamped to 0..0.99 and rounded to 2 decimals; NaN -> 0. */
export function clampSmoothing(raw) {
  const value = Number(raw)
  if (!Number.isFinite(value)) return MIN_SMOOTHING
  return Math.round(Math.min(MAX_SMOOTHING, Math.max(MIN_SMOOTHING, value)) * 100) / 100
}

/** A smoothing method's name, the default for anything unknown. */
export function smoothingMethod(raw) {
  return SMOOTHING_METHODS.includes(raw) ? raw : DEFAULT_SMOOTHING_METHOD
}

/**
 * The steps one unit of distance stands for, for lines spanning `spans` steps: 1, or 1/1000 of
 * the longest span when it is longer than 1000 steps.
 * @param {number[]} spans
 */
export function smoothingUnit(spans) {
  const longest = Math.max(0, ...spans.filter(Number.isFinite))
  return Math.max(1, longest / UNITS_PER_RANGE)
}

/** The half window of the moving average, in units, for weight `weight`: w / (1 - w). */
export function movingAverageHalfWindow(weight) {
  const w = clampSmoothing(weight)
  return w / (1 - w)
}

function asFinite(values) {
  return values.map((value) => (Number.isFinite(value) ? value : null))
}

// A constant series is returned as is (the original disables smoothing then, and the
// floating-point arithmetic of averaging would only add noise).
function isConstant(values) {
  let first = null
  for (const value of values) {
    if (!Number.isFinite(value)) continue
    if (first === null) first = value
    else if (value !== first) return false
  }
  return first !== null
}

/**
 * Debiased EMA of `values` (numbers or null for missing/non-finite ones) with weight `weight`.
 * @param {Array<number|null>} values
 * @param {number} weight 0..0.99
 * @returns {Array<number|null>}
 */
export function smoothValues(values, weight) {
  const w = clampSmoothing(weight)
  if (w === 0 || isConstant(values)) return asFinite(values)
  let last = 0
  let count = 0
  return values.map((value) => {
    if (!Number.isFinite(value)) return null
    last = last * w + (1 - w) * value
    count += 1
    return last / (1 - w ** count)
  })
}

/**
 * Debiased EMA whose weight decays with the step distance: a finite value `d` units after the
 * previous finite one enters as last = last * w^d + (1 - w^d) * v, and the debias term follows the
 * same decay. On points one unit apart this is exactly smoothValues.
 * @param {number[]} steps the points' steps, ascending
 * @param {Array<number|null>} values
 * @param {number} weight 0..0.99
 * @param {number} [unit] steps per unit of distance (smoothingUnit)
 * @returns {Array<number|null>}
 */
export function smoothTimeWeighted(steps, values, weight, unit = 1) {
  const w = clampSmoothing(weight)
  if (w === 0 || isConstant(values)) return asFinite(values)
  let last = 0
  let norm = 0
  let previous = null
  return values.map((value, index) => {
    if (!Number.isFinite(value) || !Number.isFinite(steps[index])) return null
    // The first point has no distance: it enters as a one-unit step would.
    const decay = previous === null ? w : w ** (Math.max(0, steps[index] - previous) / unit)
    previous = steps[index]
    last = last * decay + (1 - decay) * value
    norm = norm * decay + (1 - decay)
    return last / norm
  })
}

/**
 * Centred moving average: each finite value becomes the mean of the finite values whose step is
 * within movingAverageHalfWindow(weight) units of its own (itself included).
 * @param {number[]} steps the points' steps, ascending
 * @param {Array<number|null>} values
 * @param {number} weight 0..0.99
 * @param {number} [unit] steps per unit of distance (smoothingUnit)
 * @returns {Array<number|null>}
 */
export function smoothMovingAverage(steps, values, weight, unit = 1) {
  const w = clampSmoothing(weight)
  if (w === 0 || isConstant(values)) return asFinite(values)
  // A hair over the half window, so a point exactly on its edge is not lost to rounding.
  const half = movingAverageHalfWindow(w) * unit * (1 + 1e-9)
  const kept = []
  values.forEach((value, index) => {
    if (Number.isFinite(value) && Number.isFinite(steps[index])) kept.push(index)
  })
  const out = values.map(() => null)
  // Two edges walk forward; the window's sum is kept with a compensation term (Neumaier), so
  // adding and removing values leaves no rounding error behind and each point costs O(1).
  let sum = 0
  let compensation = 0
  const add = (value) => {
    const total = sum + value
    compensation += Math.abs(sum) >= Math.abs(value) ? sum - total + value : value - total + sum
    sum = total
  }
  let low = 0
  let high = -1
  for (let k = 0; k < kept.length; k += 1) {
    const step = steps[kept[k]]
    while (high + 1 < kept.length && steps[kept[high + 1]] <= step + half) add(values[kept[++high]])
    while (steps[kept[low]] < step - half) add(-values[kept[low++]])
    out[kept[k]] = (sum + compensation) / (high - low + 1)
  }
  return out
}

/**
 * `values` smoothed by `method` with weight `weight`, at `steps` (ascending) one `unit` apart.
 * @param {string} method one of SMOOTHING_METHODS
 * @returns {Array<number|null>}
 */
export function smoothSeries(method, steps, values, weight, unit = 1) {
  if (method === 'time-ema') return smoothTimeWeighted(steps, values, weight, unit)
  if (method === 'moving-average') return smoothMovingAverage(steps, values, weight, unit)
  return smoothValues(values, weight)
}
