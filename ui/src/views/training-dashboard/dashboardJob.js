import { computed, onBeforeUnmount, ref, watch } from 'vue'
import { fetchPlugins, fetchTrainJobs } from '../../api/datavisual.js'
import { isCancel } from '../../api/http.js'
import { useRefresh } from '../../composables/refresh.js'

const CACHING_POLL_MS = 1500

/**
 * The train job shown by the dashboard: its train-jobs item (cache state, integrity) and its tags
 * per plugin, re-read on every refresh and polled while the server is still loading it.
 * `revision` increases once per successful read: cards re-read their data when it moves, so every
 * card asks for its data exactly once per revision.
 */
export function useDashboardJob(trainId) {
  const job = ref(null)
  const plugins = ref({})
  const revision = ref(0)
  const loaded = ref(false)
  const error = ref(null)
  const jobLoading = computed(() => ['NOT_IN_CACHE', 'CACHING'].includes(job.value?.cache_status))

  let generation = 0
  let inFlight = false
  let pollTimer = null
  let unmounted = false

  async function reload({ silent = false } = {}) {
    if (!trainId.value || unmounted || (inFlight && silent)) return
    const gen = generation
    inFlight = true
    try {
      // The cache status is read before the tags: once it says CACHED the tags are complete.
      // manual_update=true puts the job into the server's detail cache.
      const jobs = await fetchTrainJobs({ offset: 0, limit: 1, trainId: trainId.value })
      const answer = await fetchPlugins(trainId.value, { manualUpdate: true })
      if (gen !== generation) return
      job.value = Array.isArray(jobs.train_jobs) ? jobs.train_jobs[0] || null : null
      plugins.value = answer?.plugins && typeof answer.plugins === 'object' ? answer.plugins : {}
      error.value = null
      loaded.value = true
      revision.value += 1
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
      job.value = null
      plugins.value = {}
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

  return { job, plugins, revision, loaded, error, jobLoading, reload }
}
