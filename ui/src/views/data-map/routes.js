import { fetchDatasetGraph } from '@/api/datasetGraph.js'
import { trainIdRead } from '@/router/firstReads.js'

export default [
  {
    path: '/train-manage/data-map',
    name: 'data-map',
    component: () => import('./DataMapPage.vue'),
    meta: { firstReads: trainIdRead('train_id', fetchDatasetGraph) },
  },
]
