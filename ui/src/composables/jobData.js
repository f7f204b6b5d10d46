import { computed, getCurrentScope, onScopeDispose, ref, watch } from 'vue'
import { fetchPlugins, fetchTrainJobs } from '../api/datavisual.js'
import { useLatestCall } from './latestCall.js'
import { useRefresh } from './refresh.js'

export const CACHING_POLL_MS = 1500
const LOADING_STATES = ['NOT_IN_CACHE', 'CACHING']

/**
 * One train job as every page and card sees it: its train-jobs item (cache status, integrity)
 * and its tags per plugin, read in one round trip, re-read on every refresh (auto or manual) and
 * polled while the server is still loading the job, so a page opened on a job the server has not
 * read yet draws it as soon as it is read.
 *
 * `trainId` is a ref or getter. `revision` increases once per successful read: whatever depends
 * on the job's data re-reads it when `revision` moves, so each reader asks once per revision.
 * An answer for a job the page has left, or after the owner unmounts, never lands.
 *
 * Returns `{job, plugins, revision, loaded, error, jobLoading, integrity, reload}`.
 */
export function useJobData(trainId) {
  const id = computed(() => (typeof trainId === 'function' ? trainId() : trainId.value) || '')
  const job = ref(null)
  const plugins = ref({})
  const revision = ref(0)
  const loaded = ref(false)
  const error = ref(null)
  const jobLoading = computed(() => LOADING_STATES.includes(job.value?.cache_status))
  const integrity = computed(() => job.value?.is_integrity !== false)

  const latest = useLatestCall()
  let pollTimer = null
  let disposed = false

  async function reload({ silent = false } = {}) {
    if (!id.value || disposed || (silent && latest.busy)) return
    const result = await latest.run(() =>
      // Both at once. The job's item carries its cache status and then its tags, read in that
      // order, so CACHED there means those tags are complete; `plugins` with manual_update puts
      // the job into the detail cache (or marks it used), and its tags serve until then.
      Promise.all([
        fetchTrainJobs({ offset: 0, limit: 1, trainId: id.value }),
        fetchPlugins(id.value, { manualUpdate: true }),
      ]),
    )
    if (!result) return
    if (result.error) {
      error.value = result.error
      return
    }
    const [jobs, answer] = result.value
    const item = Array.isArray(jobs?.train_jobs) ? jobs.train_jobs[0] || null : null
    const tagLists = item?.cache_status === 'CACHED' && item.plugins ? item.plugins : answer?.plugins
    job.value = item
    plugins.value = tagLists && typeof tagLists === 'object' ? tagLists : {}
    error.value = null
    loaded.value = true
    revision.value += 1
    clearTimeout(pollTimer)
    if (jobLoading.value) pollTimer = setTimeout(() => reload({ silent: true }), CACHING_POLL_MS)
  }

  watch(
    id,
    () => {
      latest.drop()
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

  if (getCurrentScope())
    onScopeDispose(() => {
      disposed = true
      clearTimeout(pollTimer)
    })

  return { job, plugins, revision, loaded, error, jobLoading, integrity, reload }
}
