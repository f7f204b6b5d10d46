// Pure helpers of the dashboard cards that load after the first chart (lib/dashboard.js holds
// those of the dashboard itself and its first card, which load with it).

/** The tag after `current` (wrapping), for the image card's "Switch tag". */
export function nextTag(tags, current) {
  if (!tags.length) return ''
  const index = tags.indexOf(current)
  return tags[(index + 1) % tags.length]
}

/**
 * The slice the tensor card shows of a tensor of shape `dims`: index 0 on every leading dimension
 * and the whole of the last two, as the original ('[0,0,:,:]'; '[:]' for 1-D, '[]' for a scalar).
 */
export function defaultTensorDims(dims) {
  const shape = Array.isArray(dims) ? dims : []
  return `[${shape.map((_, index) => (index >= shape.length - 2 ? ':' : '0')).join(',')}]`
}

/** A slice answer as rows of cells (a 1-D slice is one column, a single value one cell). */
export function tensorRows(data) {
  if (!Array.isArray(data)) return [[data]]
  if (!data.some((item) => Array.isArray(item))) return data.map((value) => [value])
  return data.map((row) => (Array.isArray(row) ? row : [row]))
}
