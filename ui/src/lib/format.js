// Number and time formatting for chart axes and tooltips.

/** Compact axis label: at most 4 significant digits, exponent form for very large/small values. */
export function formatAxisValue(value) {
  const number = Number(value)
  if (!Number.isFinite(number)) return String(value)
  if (number === 0) return '0'
  const abs = Math.abs(number)
  if (abs >= 1e5 || abs < 1e-3) return number.toExponential(2).replace(/\.?0+e/, 'e')
  return String(Number(number.toPrecision(4)))
}

/** Tooltip value: up to 8 significant digits. */
export function formatValue(value) {
  const number = Number(value)
  if (!Number.isFinite(number)) return String(value)
  const abs = Math.abs(number)
  if (abs !== 0 && (abs >= 1e9 || abs < 1e-6)) return number.toExponential(6)
  return String(Number(number.toPrecision(8)))
}

function pad(number) {
  return String(number).padStart(2, '0')
}

/** Seconds since the epoch -> local 'YYYY-MM-DD HH:MM:SS' (the server's time format). */
export function formatWallTime(seconds) {
  const number = Number(seconds)
  if (!Number.isFinite(number)) return ''
  const date = new Date(number * 1000)
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
}

/** "1, 2, 3 … (+n)" for a list of steps in notices. */
export function summarizeSteps(steps, max = 5) {
  const shown = steps.slice(0, max).join(', ')
  return steps.length > max ? `${shown}, … (+${steps.length - max})` : shown
}

/**
 * A number for a table of facts: at most `digits` significant digits, exponent form below 1e-4
 * and from 1e7 on; numeric strings (the server's "1.000000e-03") alike. Anything else as it is.
 */
export function formatSignificant(value, digits = 7) {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof number !== 'number' || !Number.isFinite(number)) return value
  if (number === 0) return '0'
  const abs = Math.abs(number)
  if (abs < 1e-4 || abs >= 1e7) return number.toExponential(digits - 1).replace(/\.?0+e/, 'e')
  return String(Number(number.toPrecision(digits)))
}
