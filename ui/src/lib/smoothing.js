// Exponential moving average with debiasing, as TensorBoard and the original MindInsight smooth
// scalar curves: last = last * w + (1 - w) * v, shown = last / (1 - w^k) where k counts the finite
// values seen so far. Without the debias term the curve would start near 0.

export const MIN_SMOOTHING = 0
export const MAX_SMOOTHING = 0.99

/** A smoothing weight from any input, clamped to 0..0.99 and rounded to 2 decimals; NaN -> 0. */
export function clampSmoothing(raw) {
  const value = Number(raw)
  if (!Number.isFinite(value)) return MIN_SMOOTHING
  return Math.round(Math.min(MAX_SMOOTHING, Math.max(MIN_SMOOTHING, value)) * 100) / 100
}

/**
 * Smoothed values of `values` (numbers or null for missing/non-finite ones) with weight `weight`.
 * Non-finite inputs stay null and do not move the average. A constant series is returned as is
 * (the original disables smoothing then, and floating-point debiasing would only add noise).
 * @param {Array<number|null>} values
 * @param {number} weight 0..0.99
 * @returns {Array<number|null>}
 */
export function smoothValues(values, weight) {
  const w = clampSmoothing(weight)
  const finite = values.filter((value) => Number.isFinite(value))
  const constant = finite.length > 0 && finite.every((value) => value === finite[0])
  if (w === 0 || constant) return values.map((value) => (Number.isFinite(value) ? value : null))
  let last = 0
  let count = 0
  return values.map((value) => {
    if (!Number.isFinite(value)) return null
    last = last * w + (1 - w) * value
    count += 1
    return last / (1 - w ** count)
  })
}
