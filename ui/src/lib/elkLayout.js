// Graph layout with ELK (elkjs), run in a web worker so a large graph never blocks the page.
import ELK from 'elkjs/lib/elk-api.js'
import ElkWorker from 'elkjs/lib/elk-worker.min.js?worker'

let elk = null

/** The laid-out ELK graph (see lib/graphModel.js for the graph given). */
export function layoutGraph(graph) {
  elk ||= new ELK({ workerFactory: () => new ElkWorker() })
  return elk.layout(graph)
}
