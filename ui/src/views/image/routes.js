export default [
  {
    path: '/train-manage/image',
    name: 'image',
    component: () => import('./ImagePage.vue'),
    meta: { jobQuery: 'train_id' },
  },
]
