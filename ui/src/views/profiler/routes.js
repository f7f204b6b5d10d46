// The summary list's Profiling link opens one of these by profiler type (lib/profilingRoute.js),
// with the original's query names: `dir` (profiler directory), `id` (train id), `path`.
const page = () => import('./OperatorPage.vue')

export default [
  { path: '/profiling', name: 'profiling', component: page, meta: { profilerType: 'ascend' } },
  { path: '/profiling-gpu', name: 'profiling-gpu', component: page, meta: { profilerType: 'gpu' } },
  { path: '/profiling-cpu', name: 'profiling-cpu', component: page, meta: { profilerType: 'cpu' } },
]
