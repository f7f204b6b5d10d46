import { nextTick, onBeforeUnmount, reactive, ref, watch } from 'vue'
import { fetchPlugins, fetchScalarMetadata, fetchTrainJobs } from '../../api/datavisual.js'
import { isCancel } from '../../api/http.js'
import { forEachLimit } from '../../lib/pool.js'
import { useRefresh } from '../../composables/refresh.js'

const PARALLEL_REQUESTS = 4
const CACHING_POLL_MS = 1500

/**
 * The scalar tags of one train job and the points of the tags on screen, kept fresh by auto
 * refresh. `visibleTags` (a ref/getter of the tags whose charts are shown) decides what is fetched.
 * While the server is still loading the job into its cache, the tags are polled until it is done.
 */
export function useScalarJob(trainId, visibleTags) {
  const allTags = ref([])
  const loaded = ref(false)
  const jobLoading = ref(false)
  const integrity = ref(true)
  const error = ref(null)
  // tag -> {metadatas: Array|null, error: ApiError|null}
  const scalarData = reactive(new Map())

  let generation = 0
  let inFlight = false
  let pollTimer = null
  let unmounted = false

  function entry(tag) {
    return scalarData.get(tag) || { metadatas: null, error: null }
  }

  /** Fetches the points of `tags`; `onSettled(tag)` is called as each one is in (or failed). */
  async function loadScalars(tags, gen, onSettled = () => {}) {
    await forEachLimit(tags, PARALLEL_REQUESTS, async (tag) => {
      try {
        const body = await fetchScalarMetadata(trainId.value, tag)
        if (gen !== generation) return
        const metadatas = Array.isArray(body.metadatas) ? body.metadatas : []
        const previous = scalarData.get(tag)
        // Same points as drawn: keep the old array so charts do not redraw for nothing.
        if (previous?.metadatas && sameSeries(previous.metadatas, metadatas)) return
        scalarData.set(tag, { metadatas, error: null })
      } catch (err) {
        if (isCancel(err) || gen !== generation) return
        const previous = scalarData.get(tag)
        scalarData.set(tag, previous?.metadatas ? previous : { metadatas: null, error: err })
      } finally {
        if (gen === generation) onSettled(tag)
      }
    })
  }

  async function load({ silent = false } = {}) {
    if (!trainId.value || unmounted || (inFlight && silent)) return
    const gen = generation
    inFlight = true
    try {
      // Both at once. The job's item carries its cache status and then its tags, read in that
      // order, so CACHED there means those tags are complete; `plugins` with manual_update puts
      // the job into the cache (or marks it used), and its tags serve while it is not cached.
      const [jobs, plugins] = await Promise.all([
        fetchTrainJobs({ offset: 0, limit: 1, trainId: trainId.value }),
        fetchPlugins(trainId.value, { manualUpdate: true }),
      ])
      if (gen !== generation) return
      const job = Array.isArray(jobs.train_jobs) ? jobs.train_jobs[0] : null
      const tagLists = job?.cache_status === 'CACHED' && job.plugins ? job.plugins : plugins.plugins
      allTags.value = Array.isArray(tagLists?.scalar) ? tagLists.scalar : []
      jobLoading.value = job?.cache_status === 'NOT_IN_CACHE' || job?.cache_status === 'CACHING'
      integrity.value = job ? job.is_integrity !== false : true
      error.value = null
      if (jobLoading.value) {
        clearTimeout(pollTimer)
        pollTimer = setTimeout(() => load({ silent: true }), CACHING_POLL_MS)
      }
      if (loaded.value) {
        await loadScalars(visibleTags.value, gen)
        return
      }
      // First load: the page is laid out once, when the first chart's points are in. Laying it
      // out before would keep the main thread busy while they arrive and draw that chart later.
      await nextTick() // the visible tags follow the new tag list through the page's watchers
      if (gen !== generation) return
      const tags = visibleTags.value
      if (!tags.length) loaded.value = true
      await loadScalars(tags, gen, (tag) => {
        if (tag === tags[0]) loaded.value = true
      })
      loaded.value = true
    } catch (err) {
      if (!isCancel(err) && gen === generation) error.value = err
    } finally {
      if (gen === generation) inFlight = false
    }
  }

  function reset() {
    generation += 1
    inFlight = false
    clearTimeout(pollTimer)
    allTags.value = []
    loaded.value = false
    jobLoading.value = false
    integrity.value = true
    error.value = null
    scalarData.clear()
  }

  watch(
    trainId,
    () => {
      reset()
      load()
    },
    { immediate: true },
  )

  watch(visibleTags, (tags) => {
    const missing = tags.filter((tag) => !scalarData.has(tag))
    if (missing.length && loaded.value) loadScalars(missing, generation)
  })

  useRefresh(() => load({ silent: true }))

  onBeforeUnmount(() => {
    unmounted = true
    generation += 1
    clearTimeout(pollTimer)
  })

  return { allTags, loaded, jobLoading, integrity, error, entry, reload: () => load() }
}

function sameSeries(a, b) {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i += 1) {
    if (a[i].step !== b[i].step || a[i].wall_time !== b[i].wall_time || !Object.is(a[i].value, b[i].value)) return false
  }
  return true
}
