// The original's lineage routes ("traceback" in its URLs).
export default [
  { path: '/model-traceback', name: 'model-lineage', component: () => import('./ModelLineagePage.vue') },
  { path: '/data-traceback', name: 'dataset-lineage', component: () => import('./DatasetLineagePage.vue') },
]
