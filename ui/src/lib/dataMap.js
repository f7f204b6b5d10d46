// The data-processing pipeline of a job (the `dataset_graph` of its lineage) as the nodes the
// data map draws. The answer is a tree whose root is the LAST operation (e.g. Batch) and whose
// `children` are the operations feeding it, down to the source datasets (MnistDataset ...).

// Kinds of node, in legend order: a source dataset, Map (with its tensor operations), Shuffle,
// Batch, Repeat, and anything else (Zip, Concat, Take, Project ...).
export const CATEGORIES = ['create', 'map', 'shuffle', 'batch', 'repeat', 'other']

export const CATEGORY_COLORS = {
  create: { fill: '#b7dcf8', border: '#4ea6e6' },
  map: { fill: '#9beff1', border: '#10a8aa' },
  shuffle: { fill: '#ffcb9f', border: '#f0883a' },
  batch: { fill: '#ffbabd', border: '#e0505b' },
  repeat: { fill: '#ffe79a', border: '#dcb100' },
  other: { fill: '#dfe3ea', border: '#8d95a3' },
}

const STRUCTURE_KEYS = new Set(['op_type', 'children', 'operations'])

export function categoryOf(opType) {
  const type = String(opType || '')
  if (/Dataset$/.test(type)) return 'create'
  const lower = type.toLowerCase()
  return CATEGORIES.includes(lower) && lower !== 'create' && lower !== 'other' ? lower : 'other'
}

/** A parameter value as shown: strings as written (their JSON quotes dropped), the rest as JSON. */
export function formatParam(value) {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return /^".*"$/.test(value) ? value.slice(1, -1) : value
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) {
    return value.map(formatParam).join(', ')
  }
  return JSON.stringify(value)
}

/** `[{key, value}]` of a node's parameters (every key but the tree structure), sorted by key. */
export function paramRows(node) {
  return Object.keys(node || {})
    .filter((key) => !STRUCTURE_KEYS.has(key))
    .sort()
    .map((key) => ({ key, value: formatParam(node[key]) }))
}

/** The tensor operations of a Map node: `[{name, params: [{key, value}]}]`; their params are a JSON text. */
export function operationsOf(node) {
  const operations = Array.isArray(node?.operations) ? node.operations : []
  return operations.map((operation) => {
    let params = operation?.tensor_op_params
    if (typeof params === 'string') {
      try {
        params = JSON.parse(params)
      } catch {
        params = { value: params }
      }
    }
    const rows =
      params && typeof params === 'object'
        ? Object.keys(params)
            .sort()
            .map((key) => ({ key, value: formatParam(params[key]) }))
        : []
    return { name: String(operation?.tensor_op_name ?? operation?.tensor_op_module ?? '?'), params: rows }
  })
}

/**
 * The pipeline of a `dataset_graph` answer: `{root, nodes}`, or null when the job has none.
 * `root` is the tree the chart draws (ids `n0`, `n1`, ... in depth-first order from the last
 * operation), `nodes` the same nodes as a flat list from the sources to the last operation:
 * `{id, opType, category, params, operations, depth}`.
 */
export function buildPipeline(datasetGraph) {
  if (!datasetGraph || typeof datasetGraph !== 'object' || !datasetGraph.op_type) return null
  const nodes = []
  let counter = 0
  function visit(raw, depth) {
    const node = {
      id: `n${counter++}`,
      opType: String(raw.op_type),
      category: categoryOf(raw.op_type),
      params: paramRows(raw),
      operations: operationsOf(raw),
      depth,
    }
    const children = Array.isArray(raw.children) ? raw.children.filter((child) => child && child.op_type) : []
    nodes.push(node)
    return { ...node, children: children.map((child) => visit(child, depth + 1)) }
  }
  const root = visit(datasetGraph, 0)
  nodes.sort((a, b) => b.depth - a.depth || Number(a.id.slice(1)) - Number(b.id.slice(1)))
  return { root, nodes }
}

const CHAR_WIDTH = { full: 8.5, compact: 6 }
// Height of the title line and of each operation line, on the page and on the thumbnail.
export const LINE_HEIGHT = { full: { title: 34, op: 20 }, compact: { title: 22, op: 14 } }

/** Box size of a node: wide enough for its label, taller for each tensor operation a Map lists. */
export function nodeSize(node, compact = false) {
  const scale = compact ? 'compact' : 'full'
  const lines = [node.opType, ...node.operations.map((operation) => operation.name)]
  const longest = Math.max(...lines.map((line) => line.length))
  const width = Math.round(longest * CHAR_WIDTH[scale] + (compact ? 14 : 28))
  const height = LINE_HEIGHT[scale].title + (lines.length - 1) * LINE_HEIGHT[scale].op
  return [width, height]
}
