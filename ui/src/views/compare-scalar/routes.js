import { askEarly } from '@/api/http.js'
import { fetchTrainJobs } from '@/api/datavisual.js'
import { LISTED_RUNS } from '@/lib/runsListing.js'

// The original's comparison routes: `/compare-analysis` opened its scalar tab.
// Its first read, the list of trainings (useRunsData's first request), is asked for while the
// page's code loads, rather than once that code is in.
export default [
  { path: '/compare-analysis', redirect: '/compare-analysis/scalar' },
  {
    path: '/compare-analysis/scalar',
    name: 'compare-scalar',
    component: () => import('./CompareScalarPage.vue'),
    meta: {
      firstReads: (routeQuery) => {
        const query = typeof routeQuery.q === 'string' && routeQuery.q ? routeQuery.q : undefined
        askEarly(() => fetchTrainJobs({ offset: 0, limit: LISTED_RUNS, query }))
      },
    },
  },
]
