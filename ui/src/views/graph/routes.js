import { fetchGraphLevel } from '@/api/graphs.js'
import { jobReads } from '@/router/firstReads.js'
import { startLayoutWorker } from '@/lib/elkWorker.js'
import { openedGraph } from './openedGraph.js'

// The original's route and query names (`train_id`, `summaryPath`). The layout worker starts with
// the page's code: its own start-up, not the size of the top level, is most of a first layout's
// time; lib/elkLayout.js then warms it up while the page's data is read.
const page = () => {
  startLayoutWorker()
  import('@/lib/elkLayout.js').then(({ warmLayout }) => warmLayout()).catch(() => {}) // the page itself reports a chunk that fails to load
  return import('./GraphPage.vue')
}

// Once the job's tags are in, the top level of the graph the page opens with is asked for.
function topLevelRead(trainId, tagLists, query) {
  const { tag, mode } = openedGraph(query, tagLists)
  if (tag) fetchGraphLevel(trainId, tag, mode, '').catch(() => {})
}

export default [
  {
    path: '/train-manage/graph',
    name: 'graph',
    component: page,
    meta: { firstReads: jobReads('train_id', topLevelRead) },
  },
]
