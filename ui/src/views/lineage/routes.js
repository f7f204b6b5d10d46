import { askEarly } from '@/api/http.js'
import { readChartRows } from '@/api/lineage.js'

// The original's lineage routes ("traceback" in its URLs). Their first read, the chart's rows, is
// asked for while the page's scripts load: the page's first read takes the answer (askEarly).
function chartRows(lineageType) {
  return (routeQuery) =>
    askEarly(() => readChartRows(lineageType, typeof routeQuery.q === 'string' ? routeQuery.q : ''))
}

export default [
  {
    path: '/model-traceback',
    name: 'model-lineage',
    component: () => import('./ModelLineagePage.vue'),
    meta: { firstReads: chartRows('model') },
  },
  {
    path: '/data-traceback',
    name: 'dataset-lineage',
    component: () => import('./DatasetLineagePage.vue'),
    meta: { firstReads: chartRows('dataset') },
  },
]
