// The original's comparison routes: `/compare-analysis` opened its scalar tab.
export default [
  { path: '/compare-analysis', redirect: '/compare-analysis/scalar' },
  { path: '/compare-analysis/scalar', name: 'compare-scalar', component: () => import('./CompareScalarPage.vue') },
]
