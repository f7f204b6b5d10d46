export default [
  {
    path: '/summary-manage',
    name: 'summary-manage',
    component: () => import('./SummaryList.vue'),
    meta: { coreMessages: true },
  },
]
