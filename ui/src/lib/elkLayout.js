// Graph layout with ELK (elkjs), run in a web worker so a large graph never blocks the page.
import ELK from 'elkjs/lib/elk-api.js'
import { takeLayoutWorker } from './elkWorker.js'

let elk = null

function engine() {
  elk ||= new ELK({ workerFactory: takeLayoutWorker })
  return elk
}

/** The laid-out ELK graph (see lib/graphModel.js for the graph given). */
export function layoutGraph(graph) {
  return engine().layout(graph)
}

/**
 * Lays out a tiny graph in the worker (started by lib/elkWorker.js), so that ELK's code is
 * fetched, compiled and set up while the page reads its data; the graph's layout queues behind.
 */
export function warmLayout() {
  if (elk) return
  const graph = {
    id: 'warm-up',
    layoutOptions: { 'elk.algorithm': 'layered', 'elk.direction': 'DOWN' },
    children: [
      { id: 'a', width: 10, height: 10 },
      { id: 'b', width: 10, height: 10 },
    ],
    edges: [{ id: 'e', sources: ['a'], targets: ['b'], labels: [{ text: 'x', width: 5, height: 5 }] }],
  }
  engine()
    .layout(graph)
    .catch(() => {})
}
