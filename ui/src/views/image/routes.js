import { jobReads } from '@/router/firstReads.js'

export default [
  {
    path: '/train-manage/image',
    name: 'image',
    component: () => import('./ImagePage.vue'),
    meta: { firstReads: jobReads('train_id') },
  },
]
