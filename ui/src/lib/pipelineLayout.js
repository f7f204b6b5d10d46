// The data map's drawing of a pipeline (lib/dataMap.js's `buildPipeline` tree), laid out by dagre:
// the data flows from the source datasets to the last operation, left to right, or downwards where
// the page is too narrow for its levels side by side. Each box lists its operation's type and, for
// a Map, its tensor operations, one line each.
import { graphlib, layout } from '@dagrejs/dagre'
import { LINE_HEIGHT, nodeSize } from './dataMap.js'

// Space between levels and between boxes of one level, and around the drawing.
const SPACING = { full: { ranksep: 56, nodesep: 28, margin: 24 }, compact: { ranksep: 20, nodesep: 10, margin: 4 } }
// Where a text line's baseline sits below the middle of its line.
const BASELINE = { full: 5, compact: 4 }

/** The text lines of a box: `{text, y, title}`, `y` the baseline from the box's top. */
export function boxLines(node, compact = false) {
  const scale = compact ? 'compact' : 'full'
  const { title, op } = LINE_HEIGHT[scale]
  const base = BASELINE[scale]
  return [
    { text: node.opType, y: title / 2 + base, title: true },
    ...node.operations.map((operation, index) => ({
      text: operation.name,
      y: title + op * index + op / 2 + base - 1,
      title: false,
    })),
  ]
}

/**
 * `{nodes, edges, width, height}` of the pipeline under `root`: nodes `{id, opType, category, x, y,
 * width, height, lines}` (top-left corners, in the tree's depth-first order from the last
 * operation), edges `{id, source, target, points: [[x, y], ...]}` in the direction the data flows.
 * `downward` lays it out top to bottom; `compact` uses the dashboard thumbnail's smaller boxes.
 */
export function pipelineLayout(root, { downward = false, compact = false } = {}) {
  const { ranksep, nodesep, margin } = SPACING[compact ? 'compact' : 'full']
  const graph = new graphlib.Graph()
  graph.setGraph({ rankdir: downward ? 'TB' : 'LR', ranksep, nodesep, marginx: margin, marginy: margin })
  graph.setDefaultEdgeLabel(() => ({}))
  const nodes = []
  const visit = (node) => {
    nodes.push(node)
    const [width, height] = nodeSize(node, compact)
    graph.setNode(node.id, { width, height })
    for (const child of node.children) {
      visit(child)
      graph.setEdge(child.id, node.id)
    }
  }
  visit(root)
  layout(graph)
  const { width, height } = graph.graph()
  return {
    nodes: nodes.map((node) => {
      const box = graph.node(node.id)
      return {
        id: node.id,
        opType: node.opType,
        category: node.category,
        x: box.x - box.width / 2,
        y: box.y - box.height / 2,
        width: box.width,
        height: box.height,
        lines: boxLines(node, compact),
      }
    }),
    edges: graph.edges().map(({ v, w }) => ({
      id: `${v}>${w}`,
      source: v,
      target: w,
      points: graph.edge(v, w).points.map((point) => [point.x, point.y]),
    })),
    width: width || 0,
    height: height || 0,
  }
}
