// Turns the server's slice of a tensor into table rows, formats cells by data type, and shades them
// by value. The server sends a nested list with one level per sliced dimension; when the tensor
// holds NaN or Infinity, those values arrive as the strings "NAN", "INF" and "-INF".

const NON_FINITE = { NAN: NaN, INF: Infinity, '-INF': -Infinity }

/** Whether a data type name (`DT_INT32`, `DT_UINT8`, ...) holds integers. */
export function isIntegerType(dataType) {
  return /^DT_U?INT\d*$/.test(String(dataType || ''))
}

export function isBoolType(dataType) {
  return String(dataType || '') === 'DT_BOOL'
}

/** A cell value as a JS number (or boolean); the server's "NAN"/"INF"/"-INF" strings decoded. */
export function cellNumber(value) {
  if (typeof value === 'string') {
    const upper = value.trim().toUpperCase()
    if (upper in NON_FINITE) return NON_FINITE[upper]
    const number = Number(value)
    return Number.isNaN(number) ? NaN : number
  }
  return value
}

/**
 * The selected slice as `{columns, rows}`: `columns` the column indices in the tensor, `rows` a list
 * of `{index, cells}`. `axes` are the index lists of the sliced dimensions (from parseDims), row
 * axis first. No slice gives one cell, one slice one row.
 */
export function shapeTable(data, axes) {
  let grid
  if (!Array.isArray(data)) grid = [[data]]
  else if (!data.length) grid = []
  else if (!Array.isArray(data[0])) grid = [data]
  else grid = data
  const rowIndices = axes.length === 2 ? axes[0] : [null]
  const columnIndices = axes.length ? axes[axes.length - 1] : [null]
  const width = grid.reduce((widest, row) => Math.max(widest, row.length), 0)
  const columns = Array.from({ length: width }, (_, i) => columnIndices[i] ?? i)
  const rows = grid.map((cells, i) => ({ index: rowIndices[i] ?? i, cells: cells.map(cellNumber) }))
  return { columns, rows }
}

/**
 * A cell as text. Integers and booleans are shown as they are; floats with `accuracy` decimals, in
 * fixed notation (`category` 'value') or scientific notation ('science'). NaN/±Infinity by name.
 * @param {unknown} value
 * @param {{dataType?: string, category?: string, accuracy?: number}} [options]
 */
export function formatCell(value, { dataType, category = 'value', accuracy = 5 } = {}) {
  if (value === null || value === undefined) return ''
  if (typeof value === 'boolean' || isBoolType(dataType)) return String(Boolean(value))
  const number = Number(value)
  if (Number.isNaN(number)) return 'NaN'
  if (number === Infinity) return '+Inf'
  if (number === -Infinity) return '-Inf'
  if (isIntegerType(dataType)) return String(value)
  return category === 'science' ? number.toExponential(accuracy) : number.toFixed(accuracy)
}

/** The largest absolute finite value of a table (the scale of the cell shading). */
export function maxAbs(rows) {
  let largest = 0
  for (const row of rows) {
    for (const cell of row.cells) {
      const number = Number(cell)
      if (Number.isFinite(number)) largest = Math.max(largest, Math.abs(number))
    }
  }
  return largest
}

/** Height of the header and of every row of a tensor table (px). */
export const TABLE_ROW_HEIGHT = 24
/** Width of a tensor table's row-index column (px). */
export const INDEX_COLUMN_WIDTH = 64
/** Most height a tensor table takes (px): a longer slice scrolls. */
export const MAX_TABLE_HEIGHT = 240
/**
 * Most cells a slice shows as a plain HTML table. A larger one is Element's virtual table, which
 * makes only the cells in view but whose code (half of the tensor page's) and set-up would delay
 * every small slice, the common case: a kernel, a feature map, a bias.
 */
export const PLAIN_TABLE_MAX_CELLS = 2000

/**
 * The props of both tables of a slice (PlainTensorTable.vue, TensorTable.vue); each emits `drawn`
 * once its first cells are on screen.
 */
export const TENSOR_TABLE_PROPS = {
  table: { type: Object, required: true }, // {columns, rows} from shapeTable()
  dataType: { type: String, default: '' },
  category: { type: String, default: 'value' },
  accuracy: { type: Number, default: 5 },
  // A new slice is being read: a mask over the table shown.
  loading: { type: Boolean, default: false },
}

/** Whether a `shapeTable` result is shown as a plain table (see PLAIN_TABLE_MAX_CELLS). */
export function isPlainTable(table) {
  return table.rows.length * table.columns.length <= PLAIN_TABLE_MAX_CELLS
}

/** Height of a table of `rowCount` rows: a short slice takes little room, a long one scrolls. */
export function tableHeight(rowCount) {
  return Math.min(TABLE_ROW_HEIGHT * (rowCount + 1) + 2, MAX_TABLE_HEIGHT)
}

/** Width of a value column: room for `accuracy` decimals (and an exponent in scientific notation). */
export function cellWidth({ accuracy, category }) {
  return Math.max(72, 40 + accuracy * 8 + (category === 'science' ? 32 : 0))
}

/** The inline style of a cell shaded by its value (`cellShade`), or null. */
export function cellBackground(value, scale) {
  const shade = cellShade(value, scale)
  if (shade.sign === 'none') return null
  const colour = shade.sign === 'positive' ? '0, 165, 167' : '245, 147, 66'
  return { background: `rgba(${colour}, ${shade.alpha})` }
}

/**
 * Shading of a cell: `{sign: 'positive'|'negative'|'none', alpha}` with alpha in 0..0.8 by the
 * share of the value in `scale` (positive values are drawn blue, negative ones orange).
 */
export function cellShade(value, scale) {
  const number = Number(value)
  if (typeof value === 'boolean' || !Number.isFinite(number) || number === 0 || !(scale > 0)) {
    return { sign: 'none', alpha: 0 }
  }
  const alpha = Math.round(Math.min(1, Math.abs(number) / scale) * 80) / 100
  return { sign: number > 0 ? 'positive' : 'negative', alpha }
}

/**
 * The statistics shown under a table, from the server's `statistics` object: whole-tensor values
 * (`overall_*`) when present, else the plain ones. Bool tensors only have counts of true/false.
 */
export function summarizeStatistics(statistics) {
  if (!statistics || typeof statistics !== 'object') return null
  const pick = (name) => statistics[`overall_${name}`] ?? statistics[name] ?? null
  if ('overall_true_count' in statistics) {
    return {
      kind: 'bool',
      count: pick('count'),
      trueCount: statistics.overall_true_count,
      falseCount: statistics.overall_false_count,
    }
  }
  return {
    kind: 'number',
    max: pick('max'),
    min: pick('min'),
    mean: pick('avg'),
    count: pick('count'),
    nanCount: pick('nan_count'),
    posInfCount: pick('pos_inf_count'),
    negInfCount: pick('neg_inf_count'),
  }
}
