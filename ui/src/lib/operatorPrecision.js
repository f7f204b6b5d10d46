// The reduced-precision operator list: every operator of a graph file (the leaves of
// `graphs/nodes/all`) with the `precision_flag` attribute MindSpore sets on operators whose
// precision was raised or reduced by mixed precision. As in the original, operators whose flag
// says "reduce" come first, then the other flagged ones, then the rest, each in graph order.
import { safeFileName, toCsv } from './csv.js'

/** The text of a string attribute as the graph answer prints it (`dtype: DT_STRING str_val: "reduce"`). */
export function attrText(value) {
  if (value === null || value === undefined) return ''
  const text = String(value)
  const quoted = text.match(/str_val:\s*"((?:[^"\\]|\\.)*)"/)
  return (quoted ? quoted[1] : text).trim()
}

/** `[{name, shape, dataType}]` of a node's `input` or `output` edges. */
export function edgeRows(edges) {
  if (!edges || typeof edges !== 'object') return []
  return Object.entries(edges).map(([name, edge]) => ({
    name,
    shape: JSON.stringify(edge?.shape ?? []),
    dataType: String(edge?.data_type ?? ''),
  }))
}

/**
 * Table rows of an `all_nodes_detail` list: `{id, opName, name, type, precisionFlag, reduced,
 * inputs, outputs}`; `id` is the position in the graph (from 1), `reduced` null when unflagged.
 */
export function operatorRows(nodes) {
  const reduced = []
  const flagged = []
  const rest = []
  ;(Array.isArray(nodes) ? nodes : []).forEach((node, index) => {
    const name = String(node?.name ?? '')
    const flag = attrText(node?.attr?.precision_flag)
    const row = {
      id: index + 1,
      opName: name.split('/').pop(),
      name,
      type: String(node?.type ?? ''),
      precisionFlag: flag,
      reduced: flag ? /reduce/i.test(flag) : null,
      inputs: edgeRows(node?.input),
      outputs: edgeRows(node?.output),
    }
    if (row.reduced) reduced.push(row)
    else if (flag) flagged.push(row)
    else rest.push(row)
  })
  return [...reduced, ...flagged, ...rest]
}

/** Rows whose full name (scope included) or type holds `text`, ignoring case; `flaggedOnly` keeps flagged ones. */
export function filterRows(rows, text, { flaggedOnly = false } = {}) {
  const needle = String(text || '')
    .trim()
    .toLowerCase()
  return rows.filter(
    (row) =>
      (!flaggedOnly || row.precisionFlag) &&
      (!needle || row.name.toLowerCase().includes(needle) || row.type.toLowerCase().includes(needle)),
  )
}

function edgesText(edges) {
  return edges.map((edge) => `${edge.name} ${edge.shape} ${edge.dataType}`).join('; ')
}

/**
 * CSV of the rows with the given header texts (ID, operator name, full name, type, precision
 * flag, reduced, inputs, outputs); `yesNo` gives the texts of the reduced column.
 */
export function operatorsCsv(rows, header, yesNo = ['yes', 'no']) {
  const lines = rows.map((row) => {
    const reduced = row.reduced === null ? '' : row.reduced ? yesNo[0] : yesNo[1]
    const fields = [row.id, row.opName, row.name, row.type, row.precisionFlag, reduced]
    return [...fields, edgesText(row.inputs), edgesText(row.outputs)]
  })
  return toCsv(header, lines)
}

/** Download name: `operator_precision_<job>_<graph file>.csv`. */
export function csvFileName(trainId, tag) {
  return safeFileName(['operator_precision', trainId, tag], 'csv')
}
