// The first reads a route's page makes, asked for ahead of it (a route's `meta.firstReads(query)`,
// called by src/startPage.js as the app starts and by the router as the route is entered; the
// page's first identical reads take the answers, api/http.js askEarly).

/** First reads of a page showing one job, named by the query parameter `name`: the job itself. */
export function jobReads(name) {
  return (query) => {
    const trainId = query[name]
    if (typeof trainId !== 'string' || !trainId) return
    import('@/composables/jobData.js').then(
      ({ askJobEarly }) => askJobEarly(trainId),
      () => {}, // the page reports a chunk that fails to load
    )
  }
}
