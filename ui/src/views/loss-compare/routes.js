export default [
  { path: '/compare-analysis/loss', name: 'compare-loss', component: () => import('./LossComparePage.vue') },
]
