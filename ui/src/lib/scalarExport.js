import { safeFileName, toCsv } from './csv.js'

// Download of one chart's data as CSV or JSON. Rows keep every point the server sent, non-finite
// ones included (named NaN / Infinity / -Infinity when known), plus the smoothed value drawn.

/** One row per point: {tag, wall_time, step, value (number or null), non_finite (kind or null), smoothed}. */
export function exportRows(tag, points, smoothed) {
  return points.map(([step, value, wallTime, kind], index) => ({
    tag,
    wall_time: wallTime,
    step,
    value,
    non_finite: kind,
    smoothed: smoothed ? (smoothed[index] ?? null) : value,
  }))
}

/** CSV with a header line; a non-finite value is written as its name (NaN, Infinity, -Infinity) or left empty. */
export function rowsToCsv(rows, { withSmoothed = false, withTag = false } = {}) {
  const header = [...(withTag ? ['tag'] : []), 'wall_time', 'step', 'value', ...(withSmoothed ? ['smoothed'] : [])]
  const lines = rows.map((row) => {
    const value = row.value ?? (row.non_finite && row.non_finite !== 'null' ? row.non_finite : '')
    const fields = [...(withTag ? [row.tag] : []), row.wall_time, row.step, value]
    if (withSmoothed) fields.push(row.smoothed ?? '')
    return fields
  })
  return toCsv(header, lines)
}

function jsonPoints(rows, smoothing) {
  return rows.map((row) => {
    const point = { wall_time: row.wall_time, step: row.step, value: row.value }
    if (row.non_finite && row.non_finite !== 'null') point.non_finite = row.non_finite
    if (smoothing > 0) point.smoothed = row.smoothed
    return point
  })
}

/**
 * JSON document of a chart: the job, the smoothing used and the points of its tag, or with several
 * tags (synthesis) `series: [{tag, points}]`. Non-finite values are null with their kind in `non_finite`.
 */
export function rowsToJson(rowsByTag, { trainId, smoothing }) {
  const series = rowsByTag.map(({ tag, rows }) => ({ tag, points: jsonPoints(rows, smoothing) }))
  const document =
    series.length === 1 ? { train_id: trainId, smoothing, ...series[0] } : { train_id: trainId, smoothing, series }
  return `${JSON.stringify(document, null, 2)}\n`
}

/** A file name safe on every OS: "<job>_<tag>.<ext>" with other characters replaced by '_'. */
export function exportFileName(trainId, tag, extension) {
  return safeFileName([trainId, tag], extension, 'scalar')
}
