// The drawn part of a computational graph: the levels fetched so far (scope name -> its nodes,
// '' = the top level) and the set of expanded scopes give the visible nodes; every edge between
// two nodes is drawn between their visible ancestors (a node inside a collapsed scope is drawn as
// that scope). The ELK graph built here nests the nodes of expanded scopes in their scope's box.
import { edgeLabel, labelSize } from './graphEdges.js'

const SCOPE_TYPES = new Set(['name_scope', 'aggregation_scope'])

/** `scope`, `aggregation`, `parameter`, `const` or `operator`. */
export function nodeKind(node) {
  if (node.type === 'name_scope') return 'scope'
  if (node.type === 'aggregation_scope') return 'aggregation'
  if (node.type === 'Parameter') return 'parameter'
  if (node.type === 'Const') return 'const'
  return 'operator'
}

export const isScope = (node) => SCOPE_TYPES.has(node.type)

/** The last part of a node's name ("Default/conv1/Conv2D-op0" -> "Conv2D-op0"). */
export function shortName(name) {
  return name.slice(name.lastIndexOf('/') + 1)
}

/** Every scope above a node, outermost first ("a/b/c" -> ["a", "a/b"]). */
export function ancestors(name) {
  const parts = name.split('/')
  return parts.slice(1).map((_, index) => parts.slice(0, index + 1).join('/'))
}

/** The visible nodes `{name -> node}` of the levels under the expanded scopes. */
export function visibleNodes(levels, expanded) {
  const visible = new Map()
  const walk = (scope) => {
    for (const node of levels.get(scope) || []) {
      visible.set(node.name, node)
      if (isScope(node) && expanded.has(node.name) && levels.has(node.name)) walk(node.name)
    }
  }
  walk('')
  return visible
}

/** The drawn node standing for `name`: itself, or its innermost visible scope (null if none). */
export function visibleAncestor(name, visible, expanded) {
  if (visible.has(name) && !(expanded.has(name) && isScope(visible.get(name)))) return name
  const scopes = ancestors(name).reverse()
  for (const scope of scopes) if (visible.has(scope) && !expanded.has(scope)) return scope
  return null
}

/**
 * Edges `{source, target, type, tensors}` between drawn nodes (collapsed scopes and leaves),
 * deduplicated; `tensors` are the recorded edges each one stands for (`{name, shape, dataType}`).
 */
export function visibleEdges(visible, expanded) {
  const edges = new Map()
  for (const [name, node] of visible) {
    if (expanded.has(name) && isScope(node)) continue
    for (const [input, info] of Object.entries(node.input || {})) {
      const source = visibleAncestor(input, visible, expanded)
      if (!source || source === name) continue
      // An edge from inside a scope to the scope itself (or the other way) is not drawn.
      if (name.startsWith(`${source}/`) || source.startsWith(`${name}/`)) continue
      const type = info?.edge_type === 'control' ? 'control' : 'data'
      const key = `${source}\n${name}\n${type}`
      if (!edges.has(key)) edges.set(key, { id: `e${edges.size}`, source, target: name, type, tensors: [] })
      edges.get(key).tensors.push({ name: input, shape: info?.shape ?? [], dataType: info?.data_type || '' })
    }
  }
  return [...edges.values()]
}

const SIZES = {
  scope: [150, 40],
  aggregation: [150, 40],
  operator: [110, 30],
  parameter: [70, 22],
  const: [60, 22],
}

/** Box size of a collapsed node by its kind and label. */
export function nodeSize(node) {
  const [width, height] = SIZES[nodeKind(node)]
  const label = shortName(node.name)
  return [Math.max(width, Math.min(260, label.length * 7 + 20)), height]
}

/**
 * The ELK graph of what is visible: expanded scopes are compound nodes holding their level; each
 * edge carries its label (lib/graphEdges.js), which ELK places beside it. The server's order of
 * the nodes breaks cycles, so the top level reads Default, then Gradients, as recorded.
 */
export function elkGraph(levels, expanded) {
  const visible = visibleNodes(levels, expanded)
  const build = (scope) =>
    (levels.get(scope) || []).map((node) => {
      if (isScope(node) && expanded.has(node.name) && levels.has(node.name)) {
        return {
          id: node.name,
          layoutOptions: { 'elk.padding': '[top=34,left=14,bottom=14,right=14]' },
          children: build(node.name),
        }
      }
      const [width, height] = nodeSize(node)
      return { id: node.name, width, height }
    })
  return {
    id: '__root__',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.spacing.nodeNode': '24',
      'elk.edgeRouting': 'POLYLINE',
      'elk.edgeLabels.placement': 'CENTER',
      'elk.layered.cycleBreaking.strategy': 'MODEL_ORDER',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
    },
    children: build(''),
    edges: visibleEdges(visible, expanded).map((edge) => {
      const text = edgeLabel(edge.tensors)
      return {
        id: edge.id,
        sources: [edge.source],
        targets: [edge.target],
        edgeType: edge.type,
        tensors: edge.tensors,
        labels: text ? [{ id: `${edge.id}-label`, text, ...labelSize(text) }] : [],
      }
    }),
  }
}

/**
 * The laid-out graph in absolute coordinates: `{nodes: [{id, x, y, width, height, expanded}],
 * edges: [{id, source, target, type, tensors, points, label: {text, x, y} | null}], width, height}`.
 * ELK gives child positions relative to their parent, edge points and labels relative to the
 * edge's container.
 */
export function flattenLayout(result) {
  const nodes = []
  const offsets = new Map([['__root__', [0, 0]]])
  const walk = (children, [ox, oy]) => {
    for (const child of children || []) {
      const x = ox + (child.x || 0)
      const y = oy + (child.y || 0)
      offsets.set(child.id, [x, y])
      nodes.push({
        id: child.id,
        x,
        y,
        width: child.width,
        height: child.height,
        expanded: Boolean(child.children?.length),
      })
      walk(child.children, [x, y])
    }
  }
  walk(result.children, [0, 0])
  const edges = (result.edges || []).map((edge) => {
    const [ox, oy] = offsets.get(edge.container) || [0, 0]
    const points = (edge.sections || []).flatMap((section) => [
      section.startPoint,
      ...(section.bendPoints || []),
      section.endPoint,
    ])
    const label = edge.labels?.[0]
    return {
      id: edge.id,
      source: edge.sources[0],
      target: edge.targets[0],
      type: edge.edgeType,
      tensors: edge.tensors || [],
      points: points.map((point) => [ox + point.x, oy + point.y]),
      label: label ? { text: label.text, x: ox + (label.x || 0), y: oy + (label.y || 0) } : null,
    }
  })
  return { nodes, edges, width: result.width || 0, height: result.height || 0 }
}

/** Levels `{scope -> nodes}` from a single-node answer (each level down to the node's scope). */
export function pathLevels(answer) {
  const levels = new Map()
  let level = answer
  while (level && Array.isArray(level.nodes)) {
    levels.set(level.scope_name || '', level.nodes)
    level = level.children
  }
  return levels
}
