import { jobReads } from '@/router/firstReads.js'

export default [
  {
    path: '/train-manage/tensor',
    name: 'tensor',
    component: () => import('./TensorPage.vue'),
    meta: { firstReads: jobReads('train_id') },
  },
]
