// The first reads a route's page makes, asked for ahead of it (a route's `meta.firstReads(query)`,
// called by src/startPage.js as the app starts and by the router as the route is entered; the
// page's first identical reads take the answers, api/http.js askEarly).
// Each sends its requests at once, from modules imported statically (so in the entry): startPage.js
// calls it before the rest of the app is evaluated and made, all in one task, and a dynamic
// import's callback would run only after that task, when the page's code is nearly in.
import { askJobEarly } from '@/composables/jobData.js'

/** First reads of a page showing one job, named by the query parameter `name`: the job itself. */
export function jobReads(name) {
  return (query) => {
    const trainId = query[name]
    if (typeof trainId === 'string' && trainId) askJobEarly(trainId)
  }
}
