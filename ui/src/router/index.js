import { createRouter, createWebHashHistory } from 'vue-router'
import { cancelPageRequests } from '../api/http.js'

const SummaryList = () => import('../views/summary-list/SummaryList.vue')
const TrainingDashboard = () => import('../views/training-dashboard/TrainingDashboard.vue')

export const routes = [
  { path: '/', redirect: '/summary-manage' },
  { path: '/summary-manage', name: 'summary-manage', component: SummaryList },
  { path: '/train-manage/training-dashboard', name: 'training-dashboard', component: TrainingDashboard },
  // Unknown routes go back to the summary list, as in the original UI.
  { path: '/:pathMatch(.*)*', redirect: '/summary-manage' },
]

export function createAppRouter() {
  const router = createRouter({ history: createWebHashHistory(), routes })
  router.beforeEach((to, from) => {
    // Leaving a page cancels its in-flight requests; query-only changes (tag selection) do not.
    if (from.matched.length && to.path !== from.path) cancelPageRequests()
  })
  return router
}
