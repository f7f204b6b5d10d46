// Sorting, paging and CSV of the lineage table (all client side: a base dir holds at most 999 jobs).
import { toCsv } from './csv.js'

// Numbers before text when a column mixes them.
function compareValues(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'number') return -1
  if (typeof b === 'number') return 1
  return String(a).localeCompare(String(b), undefined, { numeric: true })
}

const isMissing = (value) => value === null || value === undefined || value === ''

/** Rows sorted by a column's value (or the job path, remark or tag); missing values stay last. */
export function sortRows(rows, sortKey, order, columns) {
  if (!sortKey || !order) return rows
  const column = columns.find((col) => col.key === sortKey)
  const valueOf =
    sortKey === 'summary_dir'
      ? (row) => row.id
      : sortKey === 'remark' || sortKey === 'tag'
        ? (row) => row.added[sortKey] || null
        : column
          ? column.value
          : null
  if (!valueOf) return rows
  const sign = order === 'descending' ? -1 : 1
  return [...rows].sort((a, b) => {
    const va = valueOf(a)
    const vb = valueOf(b)
    // Missing values stay last in either order.
    const missing = Number(isMissing(va)) - Number(isMissing(vb))
    return missing || sign * compareValues(va, vb) || a.id.localeCompare(b.id)
  })
}

/** One page (1-based) of rows. */
export function pageRows(rows, page, size) {
  return rows.slice((page - 1) * size, page * size)
}

/** CSV of the rows: the job path, each column (by its header text), the remark and the tag. */
export function lineageCsv(rows, columns, headers, { remark = 'remark', tag = 'tag', path = 'summary_dir' } = {}) {
  const header = [path, ...headers, remark, tag]
  const body = rows.map((row) => [
    row.id,
    ...columns.map((col) => col.value(row)),
    row.added.remark || '',
    row.added.tag || '',
  ])
  return toCsv(header, body)
}
