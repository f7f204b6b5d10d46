import { createRouter, createRouterMatcher, createWebHashHistory, parseQuery, START_LOCATION } from 'vue-router'
import { cancelPageRequests } from '@/api/http.js'

// Each page folder declares its own routes in `views/<page>/routes.js` (default export: an
// array of route records), so adding a page touches only its folder.
const pageRoutes = Object.values(import.meta.glob('../views/*/routes.js', { eager: true, import: 'default' })).flat()

export const routes = [
  { path: '/', redirect: '/summary-manage' },
  ...pageRoutes,
  { path: '/:pathMatch(.*)*', name: 'not-found', component: () => import('@/views/not-found/NotFound.vue') },
]

/**
 * The app's router. `loadMessages()` brings the messages of the pages beyond the summary list and
 * the dashboard (locales/index.js); a route marked `meta.coreMessages` opens without waiting for them.
 */
export function createAppRouter({ loadMessages = () => Promise.resolve() } = {}) {
  const router = createRouter({ history: createWebHashHistory(), routes })
  let messages = null
  router.beforeEach((to, from) => {
    // Leaving a page cancels its in-flight requests; query-only changes (tag selection) do not.
    // The page entered asks for its first reads (the app's first page did as the app started,
    // startPage.js).
    if (from.matched.length && to.path !== from.path) {
      cancelPageRequests()
      to.meta.firstReads?.(to.query)
    }
    // Started here, awaited below: the messages load while the page's own code does.
    messages = to.meta.coreMessages ? null : loadMessages()
  })
  router.beforeResolve(() => messages?.then(() => true))
  return router
}

/**
 * What the page at `address` (a route address, the URL's hash without '#') loads before it can
 * show anything: `loaders`, its components' lazy loaders; `coreMessages`, whether it opens
 * without the other pages' messages; `firstReads()`, which asks for its first reads ahead of it
 * (a route's `meta.firstReads(query)`, router/firstReads.js). A redirect given as a path is
 * followed, as the router does.
 */
export function pageToLoad(address) {
  const matcher = createRouterMatcher(routes, {})
  const mark = address.indexOf('?')
  let path = (mark < 0 ? address : address.slice(0, mark)) || '/'
  const search = mark < 0 ? '' : address.slice(mark + 1)
  let matched = []
  for (let hops = 0; hops < 5; hops += 1) {
    ;({ matched } = matcher.resolve({ path }, START_LOCATION))
    const redirect = matched.at(-1)?.redirect
    if (typeof redirect !== 'string') break
    path = redirect
  }
  return {
    loaders: matched.flatMap((record) => Object.values(record.components || {})).filter((c) => typeof c === 'function'),
    coreMessages: matched.some((record) => record.meta.coreMessages),
    firstReads: () => matched.at(-1)?.meta.firstReads?.(parseQuery(search)),
  }
}
