import { jobReads } from '@/router/firstReads.js'

export default [
  {
    path: '/train-manage/training-dashboard',
    name: 'training-dashboard',
    component: () => import('./TrainingDashboard.vue'),
    meta: { coreMessages: true, firstReads: jobReads('id') },
  },
]
