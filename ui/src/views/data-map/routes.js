export default [
  {
    path: '/train-manage/data-map',
    name: 'data-map',
    component: () => import('./DataMapPage.vue'),
  },
]
