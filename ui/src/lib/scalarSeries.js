// Scalar points -> ECharts line data. The server sends non-finite values as null (the original
// server could also send NaN/Infinity, patched to the strings "NaN", "Infinity", "-Infinity").
// Non-finite points are not drawn: they become gaps in the line and are counted for a notice.
// A null value can carry its kind in an optional `non_finite` field ('NaN', 'Infinity',
// '-Infinity') so the UI can name it; without that field it is only known as 'null'.

const NON_FINITE_LABELS = { NaN: 'NaN', Infinity: 'Infinity', '-Infinity': '-Infinity' }

/** A finite number, or null for null/NaN/±Infinity/non-numeric values. */
export function finiteValue(raw) {
  if (raw === null || raw === undefined || typeof raw === 'boolean') return null
  if (typeof raw === 'string' && raw.trim() === '') return null
  const value = typeof raw === 'number' ? raw : Number(raw)
  return Number.isFinite(value) ? value : null
}

/** How a dropped value is described: 'NaN', 'Infinity', '-Infinity' or 'null'. */
export function describeNonFinite(raw, hint) {
  if (raw === null || raw === undefined) return hint === undefined || hint === null ? 'null' : describeNonFinite(hint)
  const text = String(typeof raw === 'number' ? raw : raw).trim()
  if (text in NON_FINITE_LABELS) return NON_FINITE_LABELS[text]
  if (/^[+-]?inf(inity)?$/i.test(text)) return text.startsWith('-') ? '-Infinity' : 'Infinity'
  if (/^nan$/i.test(text)) return 'NaN'
  return 'null'
}

/**
 * @param {Array<{step:number, wall_time:number, value:any, non_finite?:string}>} metadatas
 * @returns {{data: Array<[number, number|null, number, string|null]>, invalid: Array<{step:number, kind:string}>, finiteCount: number}}
 *   `data` items are [step, value or null (gap), wall_time, kind of the dropped value or null], sorted by step.
 */
export function buildScalarSeries(metadatas) {
  const points = Array.isArray(metadatas) ? [...metadatas] : []
  points.sort((a, b) => Number(a.step) - Number(b.step))
  const data = []
  const invalid = []
  let finiteCount = 0
  for (const point of points) {
    const step = Number(point.step)
    if (!Number.isFinite(step)) continue
    const value = finiteValue(point.value)
    const kind = value === null ? describeNonFinite(point.value, point.non_finite) : null
    if (kind) invalid.push({ step, kind })
    else finiteCount += 1
    data.push([step, value, Number(point.wall_time), kind])
  }
  return { data, invalid, finiteCount }
}

/** A cheap identity of a series, to skip redrawing a chart whose data did not change. */
export function seriesSignature(metadatas) {
  if (!Array.isArray(metadatas) || metadatas.length === 0) return 'empty'
  const last = metadatas[metadatas.length - 1]
  const first = metadatas[0]
  return [metadatas.length, first.step, first.wall_time, last.step, last.wall_time, String(last.value)].join('|')
}
