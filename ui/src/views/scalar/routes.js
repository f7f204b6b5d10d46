import { fetchScalarMetadata } from '@/api/datavisual.js'
import { firstChartTags } from '@/lib/scalarFirstCharts.js'
import { jobReads, tagReads } from '@/router/firstReads.js'

// The original's route, so MindInsight bookmarks keep working:
// #/train-manage/scalar?train_id=<id>&summaryPath=<id>
export default [
  {
    path: '/train-manage/scalar',
    name: 'scalar',
    component: () => import('./ScalarPage.vue'),
    meta: { firstReads: jobReads('train_id', tagReads('scalar', firstChartTags, fetchScalarMetadata)) },
  },
]
