// The original's route, so MindInsight bookmarks keep working:
// #/train-manage/scalar?train_id=<id>&summaryPath=<id>
export default [
  {
    path: '/train-manage/scalar',
    name: 'scalar',
    component: () => import('./ScalarPage.vue'),
    meta: { jobQuery: 'train_id' },
  },
]
