import { jobReads } from '@/router/firstReads.js'

export default [
  {
    path: '/train-manage/loss-analysis',
    name: 'loss-analysis',
    component: () => import('./LossAnalysisPage.vue'),
    meta: { firstReads: jobReads('train_id') },
  },
]
