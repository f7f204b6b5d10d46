// The graph page's layout worker (ELK, lib/elkLayout.js), started as soon as the page is asked
// for: its code is large and sets itself up slowly, and meanwhile the page's own code loads and
// its data is read. Only this small wrapper is in the app's entry.
import ElkWorker from 'elkjs/lib/elk-worker.min.js?worker'

let started = null
let taken = false // the app's one layout engine holds its worker: later visits need none

/** Starts the layout worker, unless one is waiting or in use. */
export function startLayoutWorker() {
  if (!taken) started ||= new ElkWorker()
}

/** The worker started before, or a new one. */
export function takeLayoutWorker() {
  const worker = started || new ElkWorker()
  started = null
  taken = true
  return worker
}
