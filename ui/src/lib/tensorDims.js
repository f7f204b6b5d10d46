// The tensor table's dimension selection: text like `0, :, 0:5` with one item per tensor
// dimension, each an integer index (negative counts from the end) or a Python slice
// `start:stop[:step]`. At most two items may be slices, so the selection is at most 2-D (a table).
// The server answers an error for more than TABLE_VALUE_LIMIT values; checking here first tells the
// user why before a request is made.

/** Most values the server sends for one table query (its "response too large" limit). */
export const TABLE_VALUE_LIMIT = 100000
/** Most slice items in a selection: a table has two axes. */
export const MAX_SLICES = 2
/** Most columns the default selection shows (the original UI's `0:1000` on the last axis). */
export const DEFAULT_COLUMN_LIMIT = 1000

const INDEX = /^[+-]?\d+$/
const SLICE = /^([+-]?\d+)?:([+-]?\d+)?(?::([+-]?\d+)?)?$/

function fail(key, params = {}) {
  return { ok: false, error: { key, params } }
}

/** Python's slice.indices(): the indices a slice selects on an axis of `size` elements. */
export function sliceIndices(start, stop, step, size) {
  const stride = step ?? 1
  const clamp = (value, fallback, low, high) => {
    if (value === null || value === undefined) return fallback
    const shifted = value < 0 ? value + size : value
    return Math.min(Math.max(shifted, low), high)
  }
  const indices = []
  if (stride > 0) {
    const from = clamp(start, 0, 0, size)
    const to = clamp(stop, size, 0, size)
    for (let i = from; i < to; i += stride) indices.push(i)
  } else {
    const from = clamp(start, size - 1, -1, size - 1)
    const to = clamp(stop, -1, -1, size - 1)
    for (let i = from; i > to; i += stride) indices.push(i)
  }
  return indices
}

function parseItem(text, size, position) {
  if (INDEX.test(text)) {
    const value = Number(text)
    if (value < -size || value >= size) return fail('tensor.dims.indexOutOfRange', { position, value, size })
    return { ok: true, item: { kind: 'index', text: String(value), index: value < 0 ? value + size : value } }
  }
  const match = SLICE.exec(text)
  if (!match) return fail('tensor.dims.badItem', { position, item: text })
  const [start, stop, step] = match.slice(1, 4).map((part) => (part === undefined ? null : Number(part)))
  if (step === 0) return fail('tensor.dims.zeroStep', { position })
  const indices = sliceIndices(start, stop, step, size)
  if (!indices.length) return fail('tensor.dims.emptySlice', { position, item: text })
  return { ok: true, item: { kind: 'slice', text, indices } }
}

/**
 * Checks a selection against a tensor shape. Returns `{ok: true, items, query, axes, count}` where
 * `query` is the server's `dims` parameter (`[0,:,0:5]`), `axes` the index lists of the sliced
 * dimensions (row axis first) and `count` the number of selected values; or `{ok: false, error}`
 * with `error.key` a message key and `error.params` its values.
 */
export function parseDims(text, shape) {
  const rank = shape.length
  let body = String(text ?? '').trim()
  if (body.startsWith('[') && body.endsWith(']')) body = body.slice(1, -1).trim()
  const parts = body === '' ? [] : body.split(',').map((part) => part.replace(/\s+/g, ''))
  if (parts.length !== rank) return fail('tensor.dims.wrongCount', { count: parts.length, rank })
  const items = []
  for (let i = 0; i < rank; i += 1) {
    if (parts[i] === '') return fail('tensor.dims.emptyItem', { position: i + 1 })
    const parsed = parseItem(parts[i], shape[i], i + 1)
    if (!parsed.ok) return parsed
    items.push(parsed.item)
  }
  const axes = items.filter((item) => item.kind === 'slice').map((item) => item.indices)
  if (axes.length > MAX_SLICES) return fail('tensor.dims.tooManySlices', { max: MAX_SLICES })
  const count = axes.reduce((product, indices) => product * indices.length, 1)
  if (count > TABLE_VALUE_LIMIT) return fail('tensor.dims.tooManyValues', { count, limit: TABLE_VALUE_LIMIT })
  return { ok: true, items, axes, count, query: `[${items.map((item) => item.text).join(',')}]` }
}

/**
 * The first selection shown for a shape: index 0 on every leading dimension and slices over the
 * last two (`0,0,:,:`), the last one cut to DEFAULT_COLUMN_LIMIT columns and the rows cut so the
 * table stays within TABLE_VALUE_LIMIT values.
 */
export function defaultDims(shape) {
  const rank = shape.length
  if (rank === 0) return ''
  const items = shape.map(() => '0')
  const columns = Math.min(shape[rank - 1], DEFAULT_COLUMN_LIMIT)
  items[rank - 1] = columns < shape[rank - 1] ? `0:${columns}` : ':'
  if (rank >= 2) {
    const rows = Math.max(1, Math.floor(TABLE_VALUE_LIMIT / Math.max(columns, 1)))
    items[rank - 2] = rows < shape[rank - 2] ? `0:${rows}` : ':'
  }
  return items.join(', ')
}

/** Whether `text` is a valid selection for `shape` (to keep a user's choice when the step changes). */
export function dimsFit(text, shape) {
  return parseDims(text, shape).ok
}
