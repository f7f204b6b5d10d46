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
const LINE_HEIGHT = { full: { title: 34, op: 20 }, compact: { title: 22, op: 14 } }

/** Box size of a node: wide enough for its label, taller for each tensor operation a Map lists. */
export function nodeSize(node, compact = false) {
  const scale = compact ? 'compact' : 'full'
  const lines = [node.opType, ...node.operations.map((operation) => operation.name)]
  const longest = Math.max(...lines.map((line) => line.length))
  const width = Math.round(longest * CHAR_WIDTH[scale] + (compact ? 14 : 28))
  const height = LINE_HEIGHT[scale].title + (lines.length - 1) * LINE_HEIGHT[scale].op
  return [width, height]
}

/** The label text (ECharts rich text) of a node: its type, then its tensor operations. */
export function nodeLabel(node) {
  if (!node.operations.length) return `{title|${node.opType}}`
  return [`{title|${node.opType}}`, ...node.operations.map((operation) => `{op|${operation.name}}`)].join('\n')
}

// Thumbnail: the least gap between the boxes of neighbouring levels, and the margin at each side.
const THUMBNAIL_GAP = 8
const THUMBNAIL_MARGIN = 4

/**
 * The scale (at most 1) at which the thumbnail's boxes fit `width` px without overlapping: the
 * tree spaces its levels evenly, so each pair of neighbouring levels must fit in one spacing.
 */
export function thumbnailScale(root, width) {
  const widest = []
  const visit = (node, depth) => {
    widest[depth] = Math.max(widest[depth] || 0, nodeSize(node, true)[0])
    node.children.forEach((child) => visit(child, depth + 1))
  }
  visit(root, 0)
  const gaps = widest.length - 1
  const edge = Math.max(...widest)
  let pair = 0
  for (let depth = 0; depth < gaps; depth++) pair = Math.max(pair, (widest[depth] + widest[depth + 1]) / 2)
  const room = width - 2 * THUMBNAIL_MARGIN - gaps * THUMBNAIL_GAP
  return Math.max(0.4, Math.min(1, room / (gaps * pair + edge)))
}

// The page's drawing: its side margins when laid out across, and the least gap between the boxes
// of neighbouring levels.
const PAGE_SIDE = 90
const LEVEL_GAP = 24

function levelSizes(root) {
  const widest = []
  const tallest = []
  const visit = (node, depth) => {
    const [width, height] = nodeSize(node)
    widest[depth] = Math.max(widest[depth] || 0, width)
    tallest[depth] = Math.max(tallest[depth] || 0, height)
    node.children.forEach((child) => visit(child, depth + 1))
  }
  visit(root, 0)
  return { widest, tallest }
}

/**
 * Whether the page's tree, laid out across (right to left), fits `width` px without the boxes
 * of neighbouring levels overlapping: the tree spaces its levels evenly.
 */
export function fitsAcross(root, width) {
  const { widest } = levelSizes(root)
  if (widest.length < 2) return true
  const spacing = (width - 2 * PAGE_SIDE) / (widest.length - 1)
  return widest.every((size, depth) => depth === 0 || (widest[depth - 1] + size) / 2 + LEVEL_GAP <= spacing)
}

const downwardEnd = (tallest) => Math.max(...tallest) / 2 + 16

/** The height in px the page's tree needs laid out top to bottom, its levels' boxes apart. */
export function downwardHeight(root) {
  const { tallest } = levelSizes(root)
  const spacing = Math.max(0, ...tallest.slice(1).map((size, depth) => (tallest[depth] + size) / 2 + LEVEL_GAP))
  return Math.ceil(spacing * (tallest.length - 1) + 2 * downwardEnd(tallest))
}

function widestBox(root) {
  return Math.max(nodeSize(root, true)[0], ...root.children.map(widestBox))
}

/** The ECharts tree-series data of the pipeline, with the selected node's border marked. */
export function treeData(root, { selected = '', compact = false, scale = 1, selectedColor = '#e02020' } = {}) {
  const item = (node) => {
    const colors = CATEGORY_COLORS[node.category]
    const isSelected = node.id === selected
    return {
      id: node.id,
      name: node.opType,
      symbolSize: nodeSize(node, compact).map((size) => Math.round(size * scale)),
      itemStyle: {
        color: colors.fill,
        borderColor: isSelected ? selectedColor : colors.border,
        borderWidth: isSelected ? 3 : 1,
      },
      label: { formatter: nodeLabel(node) },
      children: node.children.map(item),
    }
  }
  return [item(root)]
}

/**
 * The ECharts option of the pipeline: a tree laid out right to left (the data flows left to right),
 * or top to bottom on a page too narrow for its levels side by side (`fitsAcross`).
 * The thumbnail (`compact`) is scaled to fit its `width` in px and leaves the widest box's half as
 * its side margins.
 */
export function pipelineOption(root, { selected = '', compact = false, width = 0, lineColor = '#a0a6b0' } = {}) {
  const scale = compact && width > 0 ? thumbnailScale(root, width) : 1
  const font = (size) => Math.round(size * scale * 10) / 10
  // Too narrow a page (a phone) lays the tree out top to bottom, the data flowing downwards.
  const across = compact || !width || fitsAcross(root, width)
  const { widest, tallest } = across ? {} : levelSizes(root)
  const side = compact
    ? widestBox(root) * scale * 0.5 + THUMBNAIL_MARGIN
    : across
      ? PAGE_SIDE
      : Math.max(...widest) / 2 + 8
  const end = compact ? 16 : across ? 60 : downwardEnd(tallest)
  return {
    animation: false,
    series: [
      {
        type: 'tree',
        data: treeData(root, { selected, compact, scale }),
        orient: across ? 'RL' : 'BT',
        layout: 'orthogonal',
        symbol: 'rect',
        edgeShape: 'polyline',
        expandAndCollapse: false,
        initialTreeDepth: -1,
        roam: !compact,
        silent: compact,
        left: side,
        right: side,
        top: end,
        bottom: end,
        lineStyle: { color: lineColor, width: 1.5, curveness: 0 },
        label: {
          position: 'inside',
          color: '#1f2329',
          rich: {
            title: { fontSize: font(compact ? 11 : 15), fontWeight: compact ? 'normal' : 'bold', lineHeight: font(22) },
            op: { fontSize: font(compact ? 9 : 13), lineHeight: font(compact ? 14 : 20), color: '#2b4f6b' },
          },
        },
        leaves: { label: { position: 'inside' } },
        emphasis: { disabled: compact, focus: 'none' },
      },
    ],
  }
}
