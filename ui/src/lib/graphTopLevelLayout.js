// A graph's top level alone, a handful of boxes, laid out by dagre in the page: the dashboard
// card's drawing and the graph page's first one (lib/graphLayout.js). ELK, which lays out nested
// scopes, runs in a worker of some 430 KB gzip that takes about half a second to start: far too
// much for a thumbnail, and more than a first drawing should wait.
import { graphlib, layout } from '@dagrejs/dagre'
import { edgeLabel, labelSize } from './graphEdges.js'
import { nodeSize, visibleEdges } from './graphModel.js'

const MARGIN = 12
const LABEL_GAP = 6 // between an edge and its label, which sits on its right

/**
 * dagre aims an edge's ends at the boxes' centres, so an edge bent beside another between the same
 * two boxes leaves them at a slant. An end whose next point lies above or below its box leaves
 * the box's top or bottom straight up or down instead, as ELK draws them.
 */
export function straightEnds(points, source, target) {
  if (points.length < 3) return points
  const straight = (end, next, box) => {
    const inside = box && next[0] > box.x && next[0] < box.x + box.width
    const onSide = box && (Math.abs(end[1] - box.y) < 0.5 || Math.abs(end[1] - box.y - box.height) < 0.5)
    return inside && onSide ? [next[0], end[1]] : end
  }
  const out = points.slice()
  out[0] = straight(points[0], points[1], source)
  out[out.length - 1] = straight(points.at(-1), points.at(-2), target)
  return out
}

/**
 * The laid-out top level `nodes` of a graph, in the shape lib/graphModel.js's flattenLayout
 * gives (top-left corners; edge points and label corners in the same coordinates). The nodes'
 * order breaks cycles, so Default reads above Gradients, as recorded.
 */
export function topLevelLayout(nodes) {
  const graph = new graphlib.Graph({ multigraph: true })
  // The rank gap gives the same space between the boxes as ELK's layout of the same level.
  graph.setGraph({ rankdir: 'TB', ranksep: 72, nodesep: 24, edgesep: 12, marginx: MARGIN, marginy: MARGIN })
  for (const node of nodes) {
    const [width, height] = nodeSize(node)
    graph.setNode(node.name, { width, height })
  }
  const visible = new Map(nodes.map((node) => [node.name, node]))
  const edges = visibleEdges(visible, new Set())
  for (const edge of edges) {
    const text = edgeLabel(edge.tensors)
    const label = text ? { ...labelSize(text), labelpos: 'r', labeloffset: LABEL_GAP } : {}
    graph.setEdge(edge.source, edge.target, { text, ...label }, edge.id)
  }
  layout(graph)

  const laidNodes = nodes.map((node) => {
    const { x, y, width, height } = graph.node(node.name)
    return { id: node.name, x: x - width / 2, y: y - height / 2, width, height, expanded: false }
  })
  const boxes = new Map(laidNodes.map((node) => [node.id, node]))
  const laidEdges = edges.map((edge) => {
    const drawn = graph.edge(edge.source, edge.target, edge.id)
    const points = drawn.points.map((point) => [point.x, point.y])
    return {
      ...edge,
      points: straightEnds(points, boxes.get(edge.source), boxes.get(edge.target)),
      label: drawn.text ? { text: drawn.text, x: drawn.x - drawn.width / 2, y: drawn.y - drawn.height / 2 } : null,
    }
  })
  const { width, height } = graph.graph()
  return { nodes: laidNodes, edges: laidEdges, width: width || 0, height: height || 0 }
}
