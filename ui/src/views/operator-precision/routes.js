import { jobReads } from '@/router/firstReads.js'

export default [
  {
    path: '/train-manage/operatorPrecision',
    name: 'operator-precision',
    component: () => import('./OperatorPrecisionPage.vue'),
    meta: { firstReads: jobReads('train_id') },
  },
]
