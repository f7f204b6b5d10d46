// The original's lineage routes ("traceback" in its URLs). Entering one asks for its lineage at
// once (earlyRead.js), while the page's scripts load.
function askEarly(lineageType) {
  return (to) => {
    const query = typeof to.query.q === 'string' ? to.query.q : ''
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
    beforeEnter: askEarly('model'),
  },
  {
    path: '/data-traceback',
    name: 'dataset-lineage',
    component: () => import('./DatasetLineagePage.vue'),
    beforeEnter: askEarly('dataset'),
  },
]
