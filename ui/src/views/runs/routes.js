// The runs table (ours): every run with its hyper-parameters and metric summaries, server-sorted.
export default [{ path: '/runs', name: 'runs', component: () => import('./RunsPage.vue') }]
