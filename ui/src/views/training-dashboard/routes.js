export default [
  {
    path: '/train-manage/training-dashboard',
    name: 'training-dashboard',
    component: () => import('./TrainingDashboard.vue'),
    meta: { coreMessages: true, jobQuery: 'id' },
  },
]
