export default [
  {
    path: '/train-manage/tensor',
    name: 'tensor',
    component: () => import('./TensorPage.vue'),
  },
]
