// The dashboard card's drawing of a graph: its top level only, a handful of boxes, laid out by
// dagre in the page. ELK (the graph page's layout, nested scopes) runs in a worker of some 430 KB
// gzip: far too much for a thumbnail.
import { graphlib, layout } from '@dagrejs/dagre'
import { edgeLabel, labelSize } from './graphEdges.js'
import { nodeSize, visibleEdges } from './graphModel.js'

const MARGIN = 12

/**
 * The laid-out top level `nodes` of a graph, in the shape lib/graphModel.js's flattenLayout
 * gives (top-left corners; edge points and label corners in the same coordinates). The nodes'
 * order breaks cycles, so Default reads above Gradients, as recorded.
 */
export function topLevelLayout(nodes) {
  const graph = new graphlib.Graph({ multigraph: true })
  graph.setGraph({ rankdir: 'TB', ranksep: 36, nodesep: 24, edgesep: 12, marginx: MARGIN, marginy: MARGIN })
  for (const node of nodes) {
    const [width, height] = nodeSize(node)
    graph.setNode(node.name, { width, height })
  }
  const visible = new Map(nodes.map((node) => [node.name, node]))
  const edges = visibleEdges(visible, new Set())
  for (const edge of edges) {
    const text = edgeLabel(edge.tensors)
    graph.setEdge(edge.source, edge.target, { text, ...(text ? labelSize(text) : {}), labelpos: 'c' }, edge.id)
  }
  layout(graph)

  const laidNodes = nodes.map((node) => {
    const { x, y, width, height } = graph.node(node.name)
    return { id: node.name, x: x - width / 2, y: y - height / 2, width, height, expanded: false }
  })
  const laidEdges = edges.map((edge) => {
    const drawn = graph.edge(edge.source, edge.target, edge.id)
    return {
      ...edge,
      points: drawn.points.map((point) => [point.x, point.y]),
      label: drawn.text ? { text: drawn.text, x: drawn.x - drawn.width / 2, y: drawn.y - drawn.height / 2 } : null,
    }
  })
  const { width, height } = graph.graph()
  return { nodes: laidNodes, edges: laidEdges, width: width || 0, height: height || 0 }
}
