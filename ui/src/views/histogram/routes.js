import { jobReads } from '@/router/firstReads.js'

export default [
  {
    path: '/train-manage/histogram',
    name: 'histogram',
    component: () => import('./HistogramPage.vue'),
    meta: { firstReads: jobReads('train_id') },
  },
]
