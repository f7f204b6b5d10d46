// The original's route and query names (`train_id`, `summaryPath`).
export default [{ path: '/train-manage/graph', name: 'graph', component: () => import('./GraphPage.vue') }]
