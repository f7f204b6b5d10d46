// The first reads a route's page makes, asked for ahead of it (a route's `meta.firstReads(query)`,
// called by src/startPage.js as the app starts and by the router as the route is entered; the
// page's first identical reads take the answers, api/http.js askEarly).
// Each sends its requests at once, from modules imported statically (so in the entry): startPage.js
// calls it before the rest of the app is evaluated and made, all in one task, and a dynamic
// import's callback would run only after that task, when the page's code is nearly in.
import { askEarly } from '@/api/http.js'
import { askJobEarly } from '@/composables/jobData.js'

/**
 * First reads of a page showing one job, named by the query parameter `name`: the job itself,
 * then what `readsAfter(trainId, tagLists, query)` asks for once its tags are in (askEarly's
 * requests, made at once in it).
 */
export function jobReads(name, readsAfter) {
  return (query) => {
    const trainId = query[name]
    if (typeof trainId !== 'string' || !trainId) return
    const tagLists = askJobEarly(trainId)
    if (readsAfter) tagLists.then((lists) => askEarly(() => readsAfter(trainId, lists, query)))
  }
}

/**
 * Reads after the job's tags: `readTag(trainId, tag)` for each tag of `plugin` whose card or chart
 * the page opens with (`firstTags(query, tags)`).
 */
export function tagReads(plugin, firstTags, readTag) {
  return (trainId, tagLists, query) => {
    const tags = Array.isArray(tagLists[plugin]) ? firstTags(query, tagLists[plugin]) : []
    for (const tag of tags) readTag(trainId, tag).catch(() => {})
  }
}
