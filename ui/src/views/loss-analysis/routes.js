export default [
  {
    path: '/train-manage/loss-analysis',
    name: 'loss-analysis',
    component: () => import('./LossAnalysisPage.vue'),
    meta: { jobQuery: 'train_id' },
  },
]
