import { fetchHistograms } from '@/api/histograms.js'
import { firstCardTags } from '@/lib/perTagFirstCards.js'
import { jobReads, tagReads } from '@/router/firstReads.js'

export default [
  {
    path: '/train-manage/histogram',
    name: 'histogram',
    component: () => import('./HistogramPage.vue'),
    meta: { firstReads: jobReads('train_id', tagReads('histogram', firstCardTags, fetchHistograms)) },
  },
]
