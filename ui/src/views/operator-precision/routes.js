export default [
  {
    path: '/train-manage/operatorPrecision',
    name: 'operator-precision',
    component: () => import('./OperatorPrecisionPage.vue'),
    meta: { jobQuery: 'train_id' },
  },
]
