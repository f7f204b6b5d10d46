export default [
  {
    path: '/train-manage/tensor',
    name: 'tensor',
    component: () => import('./TensorPage.vue'),
    meta: { jobQuery: 'train_id' },
  },
]
