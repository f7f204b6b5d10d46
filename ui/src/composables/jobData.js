import { computed, ref, watch } from 'vue'
import { fetchPlugins, fetchTrainJobs } from '@/api/datavisual.js'
import { askEarly } from '@/api/http.js'
import { useLatestCall } from './latestCall.js'
import { usePoll, useRefresh } from './refresh.js'

// Pages take useLatestCall from here. It became a chunk of its own when pages that read no job
// imported it from latestCall.js; now that this module is in the entry, pointing those imports at
// latestCall.js made the bundler cut the entry into six files.
export { useLatestCall }

export const CACHING_POLL_MS = 1500
// A job the server was just asked to read is looked at again this soon, then every
// CACHING_POLL_MS while it loads: the server reads a job as soon as a page asks for it (a small
// one within milliseconds, a large one's first chunk, with its tags, as soon).
export const FIRST_LOOK_MS = 200
export const LOADING_STATES = ['NOT_IN_CACHE', 'CACHING']

/**
 * A job's tags per plugin from its train-jobs `item` and a `plugins` answer read with it: the
 * item's own lists once it is CACHED (its status is read before its tags, so they are complete
 * then), else the answer's, which serve until then.
 */
export function jobTagLists(item, answer) {
  const tagLists = item?.cache_status === 'CACHED' && item.plugins ? item.plugins : answer?.plugins
  return tagLists && typeof tagLists === 'object' ? tagLists : {}
}

/** The one job of a train-jobs answer asked for by train id (null when it names none). */
function jobItem(jobs) {
  return Array.isArray(jobs?.train_jobs) ? jobs.train_jobs[0] || null : null
}

/**
 * A job's train-jobs item and its tags (`plugins` with manual_update, which puts the job into the
 * server's detail cache or marks it used), asked for at once: `[train-jobs answer, plugins answer]`.
 */
export function readJob(trainId) {
  return Promise.all([fetchTrainJobs({ offset: 0, limit: 1, trainId }), fetchPlugins(trainId, { manualUpdate: true })])
}

/**
 * Reads the job as a page's first `readJob` will, ahead of it (api/http.js, askEarly).
 * @returns {Promise<object>} the job's tags per plugin (jobTagLists) once read; `{}` when the read failed
 */
export function askJobEarly(trainId) {
  let answers
  askEarly(() => {
    answers = readJob(trainId)
  })
  // The page that takes the answers reports a failure (an unknown job, say).
  return answers.then(([jobs, tags]) => jobTagLists(jobItem(jobs), tags)).catch(() => ({}))
}

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
  const firstLook = usePoll(() => reload({ silent: true }), FIRST_LOOK_MS)
  const poll = usePoll(() => reload({ silent: true }), CACHING_POLL_MS)

  async function reload({ silent = false } = {}) {
    if (!id.value || (silent && latest.busy)) return
    const first = !loaded.value
    // The job's item carries its cache status and then its tags, read in that order, so CACHED
    // there means those tags are complete; the `plugins` answer's tags serve until then.
    const result = await latest.run(() => readJob(id.value))
    if (!result) return
    if (result.error) {
      error.value = result.error
      return
    }
    const [jobs, answer] = result.value
    const item = jobItem(jobs)
    job.value = item
    plugins.value = jobTagLists(item, answer)
    error.value = null
    loaded.value = true
    revision.value += 1
    firstLook.stop()
    poll.stop()
    if (jobLoading.value) (first ? firstLook : poll).schedule()
  }

  watch(
    id,
    () => {
      latest.drop()
      firstLook.stop()
      poll.stop()
      job.value = null
      plugins.value = {}
      loaded.value = false
      error.value = null
      reload()
    },
    { immediate: true },
  )

  useRefresh(() => reload({ silent: true }))

  // Nothing reloads after the owner's scope ends: the watchers, the refresh and the poll end with
  // it, and useLatestCall drops an answer under way.

  return { job, plugins, revision, loaded, error, jobLoading, integrity, reload }
}
