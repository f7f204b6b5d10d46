import { createRouter, createWebHashHistory } from 'vue-router'
import { cancelPageRequests } from '../api/http.js'

// Each page folder declares its own routes in `views/<page>/routes.js` (default export: an
// array of route records), so adding a page touches only its folder.
const pageRoutes = Object.values(import.meta.glob('../views/*/routes.js', { eager: true, import: 'default' })).flat()

export const routes = [
  { path: '/', redirect: '/summary-manage' },
  ...pageRoutes,
  { path: '/:pathMatch(.*)*', name: 'not-found', component: () => import('../views/not-found/NotFound.vue') },
]

export function createAppRouter() {
  const router = createRouter({ history: createWebHashHistory(), routes })
  router.beforeEach((to, from) => {
    // Leaving a page cancels its in-flight requests; query-only changes (tag selection) do not.
    if (from.matched.length && to.path !== from.path) cancelPageRequests()
  })
  return router
}
