// What a drawn edge of the computational graph says: its label (one tensor: its data type and
// shape; several: how many), the tensors it stands for on hover, and which edges and nodes touch
// the selected node.

const LABEL_FONT = 8 // graph units; the canvas draws edge labels at this size
const MAX_TITLE_TENSORS = 12

/** A recorded shape (`[[32, 6, 28, 28]]`, one list per output) as "32×6×28×28". */
export function shapeText(shape) {
  const outputs = Array.isArray(shape) ? shape : []
  return outputs.map((dims) => (Array.isArray(dims) ? dims.join('×') : String(dims))).join(', ')
}

/** A tuple type ("DT_TUPLE['DT_BOOL', ...]") as "tuple(8 items)"; other types as recorded. */
function typeText(dataType, shape) {
  if (!dataType.startsWith('DT_TUPLE')) return dataType
  return `tuple(${Array.isArray(shape) ? shape.length : 0} items)`
}

/** The label of an edge standing for `tensors`: "13tensors", or "DT_TENSOR[DT_FLOAT32] 6×1×5×5". */
export function edgeLabel(tensors) {
  if (tensors.length > 1) return `${tensors.length}tensors`
  if (!tensors.length) return ''
  const { dataType, shape } = tensors[0]
  const type = typeText(dataType, shape)
  return type.startsWith('tuple') ? type : [type, shapeText(shape)].filter(Boolean).join(' ')
}

/** The box ELK keeps free for a label. */
export function labelSize(text) {
  return { width: Math.ceil(text.length * LABEL_FONT * 0.55) + 4, height: LABEL_FONT + 4 }
}

/** The hover text of an edge: one line per tensor (name, type, shape), at most a dozen. */
export function edgeTensorLines(tensors) {
  const lines = tensors.slice(0, MAX_TITLE_TENSORS).map((tensor) => ({
    name: tensor.name,
    dataType: tensor.dataType || '-',
    shape: JSON.stringify(tensor.shape ?? []),
  }))
  return { lines, more: Math.max(0, tensors.length - MAX_TITLE_TENSORS) }
}

const inside = (name, scope) => name.startsWith(`${scope}/`)

/**
 * The drawn edges into and out of the selected node (for an expanded scope: those crossing its
 * border) and the nodes at their other end: `{edges: Set<id>, nodes: Set<name>}`.
 */
export function linkedTo(edges, selected) {
  const linked = { edges: new Set(), nodes: new Set() }
  if (!selected) return linked
  const touches = (name) => name === selected || inside(name, selected)
  for (const edge of edges) {
    const from = touches(edge.source)
    const to = touches(edge.target)
    if (from === to) continue
    linked.edges.add(edge.id)
    linked.nodes.add(from ? edge.target : edge.source)
  }
  return linked
}
