import { computed, onBeforeUnmount, ref, watch } from 'vue'
import { useRoute, useRouter } from 'vue-router'
import { fetchPlugins, fetchTrainJobs } from '../api/datavisual.js'
import { isCancel } from '../api/http.js'
import { filterTags, selectedFromQuery, tagsToQuery } from '../lib/tagQuery.js'
import { useRefresh } from './refresh.js'

const CACHING_POLL_MS = 1500

/**
 * The tags of one plugin (`image`, `tensor`, ...) of the train job named by the route's `train_id`
 * query, reloaded on every refresh and polled while the server is still loading the job. The tag
 * selection lives in the route's `tags` query (no `tags` = all tags), the tag filter (a
 * case-insensitive regular expression) in `filter`, as on the scalar page; `shownTags` are the
 * selected tags the filter lets through, the ones that get a chart.
 *
 * Returns `{trainId, allTags, selectedTags, filter, shownTags, loaded, error, jobLoading, reload}`.
 */
export function useJobTags(pluginName) {
  const route = useRoute()
  const router = useRouter()

  const trainId = computed(() => (typeof route.query.train_id === 'string' ? route.query.train_id : ''))
  const allTags = ref([])
  const cacheStatus = ref('')
  const loaded = ref(false)
  const error = ref(null)
  const jobLoading = computed(() => cacheStatus.value === 'NOT_IN_CACHE' || cacheStatus.value === 'CACHING')

  let generation = 0
  let inFlight = false
  let pollTimer = null
  let unmounted = false

  const selectedTags = computed({
    get: () => selectedFromQuery(route.query.tags, allTags.value),
    set: (tags) => {
      const query = { ...route.query }
      const value = tagsToQuery(tags, allTags.value)
      if (value === undefined) delete query.tags
      else query.tags = value
      router.replace({ query })
    },
  })

  const filter = computed({
    get: () => (typeof route.query.filter === 'string' ? route.query.filter : ''),
    set: (value) => {
      const query = { ...route.query }
      if (value) query.filter = value
      else delete query.filter
      router.replace({ query })
    },
  })
  const shownTags = computed(() => filterTags(selectedTags.value, filter.value).tags)

  async function reload({ silent = false } = {}) {
    if (!trainId.value || unmounted || (inFlight && silent)) return
    const gen = generation
    inFlight = true
    try {
      // The cache status is read before the tags: once it says CACHED the tags are complete.
      // manual_update=true puts the job into the server's detail cache.
      const jobs = await fetchTrainJobs({ offset: 0, limit: 1, trainId: trainId.value })
      const plugins = await fetchPlugins(trainId.value, { manualUpdate: true })
      if (gen !== generation) return
      const job = Array.isArray(jobs.train_jobs) ? jobs.train_jobs[0] : null
      const tags = plugins?.plugins?.[pluginName]
      allTags.value = Array.isArray(tags) ? tags : []
      cacheStatus.value = job?.cache_status || ''
      error.value = null
      loaded.value = true
      clearTimeout(pollTimer)
      if (jobLoading.value) pollTimer = setTimeout(() => reload({ silent: true }), CACHING_POLL_MS)
    } catch (err) {
      if (!isCancel(err) && gen === generation) error.value = err
    } finally {
      if (gen === generation) inFlight = false
    }
  }

  watch(
    trainId,
    () => {
      generation += 1
      inFlight = false
      clearTimeout(pollTimer)
      allTags.value = []
      cacheStatus.value = ''
      loaded.value = false
      error.value = null
      reload()
    },
    { immediate: true },
  )

  useRefresh(() => reload({ silent: true }))

  onBeforeUnmount(() => {
    unmounted = true
    generation += 1
    clearTimeout(pollTimer)
  })

  return { trainId, allTags, selectedTags, filter, shownTags, loaded, error, jobLoading, reload }
}
