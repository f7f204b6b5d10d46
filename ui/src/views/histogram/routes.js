export default [
  {
    path: '/train-manage/histogram',
    name: 'histogram',
    component: () => import('./HistogramPage.vue'),
    meta: { jobQuery: 'train_id' },
  },
]
