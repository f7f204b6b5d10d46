import { computed, getCurrentScope, onScopeDispose, ref, shallowRef, watch } from 'vue'
import {
  cacheTrainJobs,
  fetchNamedTrainJobs,
  fetchPlugins,
  fetchTrainJobs,
  nameContainsQuery,
} from '@/api/datavisual.js'
import { isCancel } from '@/api/http.js'
import { LISTED_RUNS } from '@/lib/runsListing.js'
import { CACHING_POLL_MS, LOADING_STATES, jobTagLists } from './jobData.js'
import { useLatestCall } from './latestCall.js'
import { usePoll, useRefresh } from './refresh.js'

export { LISTED_RUNS }
// A training the server was just asked to load is looked at again this soon (a small one is read
// by then); later looks come every CACHING_POLL_MS.
const FIRST_LOOK_MS = 500

/**
 * A train-jobs item's cache status as far as reading the job goes: a job without event or graph
 * files (lineage or profiler output only) has nothing for the server to load, so it counts as read.
 */
export function readStatus(item) {
  if (!item) return 'NOT_IN_CACHE'
  return item.summary_files > 0 || item.graph_files > 0 ? item.cache_status : 'CACHED'
}

/**
 * The trainings of a comparison page, as useJobData is one job's: the list of trainings, and the
 * tags per plugin of the chosen ones, read with `manual_update` so that the server loads those it
 * has not read yet; re-read on every refresh (auto or manual), and polled while a chosen one is
 * still loading, so the page draws each training as soon as it is read.
 *
 * `choose(allRuns)` names the chosen trainings among the listed ones (it may read the route);
 * `listed(item)` keeps a train-jobs item in the list (default: all). One round (the first load, a
 * refresh, `reload()`) sends the list, then `plugins` once for each chosen training the server has
 * not read (it has the server load it) and, with `touch`, one train-job-caches request
 * for the others (it marks them as used, so the server keeps them; their tags are in the list);
 * choosing another training reads only its tags; a poll reads the loading trainings' own
 * train-jobs items (those of many trainings in one request: `fetchNamedTrainJobs`).
 * `revision` increases whenever the chosen trainings' data may have moved: a page re-reads their
 * data then, for `readRuns`, the chosen trainings the server holds (being read, or read); a
 * training it has not started to read has nothing to show yet.
 *
 * `allRuns` holds the newest LISTED_RUNS trainings, then those of `named()` (the trainings the
 * page's URL names) that are not among them, read by name; `search(text)` finds others on the
 * server (`{runs, total}`: at most LISTED_RUNS of the `total` whose name contains `text`), and a
 * training found so is in `allRuns` as soon as the URL names it. `total` counts the trainings.
 * With `query()` (the query language over runs) the list and the searches hold only the trainings
 * it matches (a chosen one stays whatever it says); a new query reads the list again.
 *
 * Returns `{allRuns, total, runs, readRuns, revision, loaded, error, loading, isLoading, tagsOf,
 * reload, search}`.
 */
export function useRunsData(choose, { listed = () => true, touch = false, named = () => [], query = () => '' } = {}) {
  const allRuns = shallowRef([])
  const total = ref(0)
  const states = shallowRef({}) // run -> {status, plugins}
  const revision = ref(0)
  const loaded = ref(false)
  const error = ref(null)

  const runs = computed(() => choose(allRuns.value))
  const statusOf = (run) => states.value[run]?.status
  const isLoading = (run) => LOADING_STATES.includes(statusOf(run) || 'NOT_IN_CACHE')
  const loading = computed(() => runs.value.some(isLoading))
  const readRuns = computed(() => runs.value.filter((run) => statusOf(run) && statusOf(run) !== 'NOT_IN_CACHE'))
  const tagsOf = (run, plugin) => {
    const tags = states.value[run]?.plugins?.[plugin]
    return Array.isArray(tags) ? tags : []
  }

  const latest = useLatestCall()
  let round = null // the newest round's call: tags read for it land while it is current
  let items = new Map() // train id -> its item in the newest list
  let pageIds = [] // the newest LISTED_RUNS trainings
  let found = new Map() // train id -> its item, for trainings a search found
  let asked = new Set() // trainings whose tags the newest round reads or has read
  let disposed = false
  const firstLook = usePoll(() => poll(), FIRST_LOOK_MS)
  const nextLook = usePoll(() => poll(), CACHING_POLL_MS)

  function land(next, soon) {
    states.value = { ...states.value, ...next }
    revision.value += 1
    firstLook.stop()
    nextLook.stop()
    if (runs.value.some(isLoading)) (soon ? firstLook : nextLook).schedule()
  }

  async function readTags(call, wanted) {
    const fresh = wanted.filter((run) => !asked.has(run))
    if (!fresh.length) return
    for (const run of fresh) asked.add(run)
    const statuses = fresh.map((run) => readStatus(items.get(run)))
    // A read training's tags are in its train-jobs item already; one train-job-caches request
    // marks all of them as used (what `plugins` with manual_update does for one), sent alongside
    // what the page reads next rather than before it. Only a training the server has not read
    // yet is asked its tags on its own, which also has the server load it (with `touch`, one it
    // is still reading too: its item holds no tags yet).
    const reading = fresh.filter(
      (run, index) => statuses[index] === 'NOT_IN_CACHE' || (touch && statuses[index] === 'CACHING'),
    )
    const held = touch ? fresh.filter((run, index) => statuses[index] === 'CACHED') : []
    if (held.length) cacheTrainJobs(held).catch((err) => report(call, err))
    // Without a training to ask, the tags land at once (no await): the page asks its series
    // before it draws the list, not after.
    const answers = reading.length
      ? await Promise.all(
          fresh.map((run) => (reading.includes(run) ? fetchPlugins(run, { manualUpdate: true }) : null)),
        )
      : []
    if (!call.current) return
    const next = {}
    fresh.forEach((run, index) => {
      const item = items.get(run)
      next[run] = { status: statuses[index], plugins: jobTagLists(item, answers[index] || item) }
    })
    // Trainings the server was just asked to load get a first look soon.
    land(next, statuses.includes('NOT_IN_CACHE'))
  }

  function report(call, err) {
    if (call.current && !isCancel(err)) error.value = err
  }

  async function reload({ silent = false } = {}) {
    if (disposed || (silent && latest.busy)) return
    firstLook.stop()
    nextLook.stop()
    const call = latest.begin()
    round = call
    asked = new Set()
    try {
      const body = await fetchTrainJobs({ offset: 0, limit: LISTED_RUNS, query: query() || undefined })
      if (!call.current) return
      const list = (Array.isArray(body?.train_jobs) ? body.train_jobs : []).filter(listed)
      items = new Map(list.map((item) => [item.train_id, item]))
      pageIds = list.map((item) => item.train_id)
      total.value = Number(body?.total) || 0
      found = new Map()
      const named = addNamed(call, false)
      if (named) await named
      if (!call.current) return
      await readTags(call, runs.value)
      if (!call.current) return
      error.value = null
      loaded.value = true
    } catch (err) {
      report(call, err)
    } finally {
      call.end()
    }
  }

  // The trainings the URL names that the list lacks, read by name (or taken from a search's
  // answer), then the list with them: a promise while some are read, else done at once (no
  // await, so that what follows is asked before the page draws the list).
  function addNamed(call, fresh) {
    const missing = [...new Set(named())].filter((run) => !items.has(run))
    const unknown = missing.filter((run) => !found.has(run) || !fresh)
    if (!unknown.length) return listNamed(missing)
    return fetchNamedTrainJobs(unknown).then((answers) => {
      if (!call.current) return
      for (const item of answers) if (unknown.includes(item.train_id)) found.set(item.train_id, item)
      listNamed(missing)
    })
  }

  function listNamed(missing) {
    for (const run of missing) {
      const item = found.get(run)
      if (item && listed(item)) items.set(run, item)
    }
    const ids = [...pageIds, ...[...items.keys()].filter((run) => !pageIds.includes(run))]
    if (ids.join('\n') !== allRuns.value.join('\n')) allRuns.value = ids
  }

  async function search(text) {
    const names = nameContainsQuery(text)
    const body = await fetchTrainJobs({
      offset: 0,
      limit: LISTED_RUNS,
      query: query() ? `(${query()}) and ${names}` : names,
    })
    const list = (Array.isArray(body?.train_jobs) ? body.train_jobs : []).filter(listed)
    for (const item of list) found.set(item.train_id, item)
    return { runs: list.map((item) => item.train_id), total: Number(body?.total) || 0 }
  }

  watch(query, () => reload())
  // A training chosen from a search's answer joins the list at once.
  watch(
    () => named().join('\n'),
    () => round?.current && !latest.busy && Promise.resolve(addNamed(round, true)).catch((err) => report(round, err)),
  )

  async function poll() {
    const call = round
    const waiting = runs.value.filter(isLoading)
    if (disposed || !call?.current || latest.busy || !waiting.length) return
    try {
      const answers = await fetchNamedTrainJobs(waiting)
      if (!call.current) return
      const next = {}
      for (const item of answers) {
        if (waiting.includes(item.train_id))
          next[item.train_id] = { status: readStatus(item), plugins: jobTagLists(item, item) }
      }
      land(next, false)
    } catch (err) {
      report(call, err)
    }
  }

  // Another choice reads the tags of the trainings this round has not read yet (none when the
  // round's own list changed the choice: the round reads those itself).
  watch(
    () => runs.value.join('\n'),
    () => round?.current && readTags(round, runs.value).catch((err) => report(round, err)),
  )

  reload()
  useRefresh(() => reload({ silent: true }))

  if (getCurrentScope()) onScopeDispose(() => (disposed = true))

  return { allRuns, total, runs, readRuns, revision, loaded, error, loading, isLoading, tagsOf, reload, search }
}
