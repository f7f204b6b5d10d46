// The original's lineage routes ("traceback" in its URLs). Their first read, the chart's rows,
// is asked for while the page's scripts load (earlyRead.js).
function chartRows(lineageType) {
  return (routeQuery) => {
    const query = typeof routeQuery.q === 'string' ? routeQuery.q : ''
    import('./earlyRead.js').then(
      ({ askChartRowsEarly }) => askChartRowsEarly(lineageType, query),
      () => {},
    )
  }
}

export default [
  {
    path: '/model-traceback',
    name: 'model-lineage',
    component: () => import('./ModelLineagePage.vue'),
    meta: { firstReads: chartRows('model') },
  },
  {
    path: '/data-traceback',
    name: 'dataset-lineage',
    component: () => import('./DatasetLineagePage.vue'),
    meta: { firstReads: chartRows('dataset') },
  },
]
