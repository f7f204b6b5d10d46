import { computed, nextTick, reactive, ref, watch } from 'vue'
import { fetchScalarMetadata } from '@/api/datavisual.js'
import { isCancel } from '@/api/http.js'
import { forEachLimit } from '@/lib/pool.js'
import { useJobData, useLatestCall } from '@/composables/jobData.js'

const PARALLEL_REQUESTS = 4

/**
 * The scalar tags of one train job (useJobData: one round trip, refreshed, polled while the
 * server loads the job) and the points of the tags on screen, re-read with every revision of the
 * job. `visibleTags` (a ref/getter of the tags whose charts are shown) decides what is fetched.
 * `loaded` turns true once the first chart's points are in (or there is no chart to draw).
 * `revision` moves with every read of the job (charts read every point again then).
 */
export function useScalarJob(trainId, visibleTags) {
  const { plugins, revision, error, jobLoading, integrity, reload } = useJobData(trainId)
  const allTags = computed(() => (Array.isArray(plugins.value.scalar) ? plugins.value.scalar : []))
  const loaded = ref(false)
  // tag -> {metadatas: Array|null, error: ApiError|null}
  const scalarData = reactive(new Map())
  // Points read for one job land only while the page still shows that job.
  const jobCalls = useLatestCall()
  let job = jobCalls.begin()
  // tag -> the job revision its points are being read at: a read of the same revision is not sent
  // twice (a new revision and the charts it brings on screen both ask for their tags at once).
  const reading = new Map()

  function entry(tag) {
    return scalarData.get(tag) || { metadatas: null, error: null }
  }

  /** Fetches the points of `tags`; `onSettled(tag)` is called as each one is in (or failed). */
  async function loadScalars(tags, call, onSettled = () => {}) {
    const at = revision.value
    const wanted = tags.filter((tag) => reading.get(tag) !== at)
    for (const tag of wanted) reading.set(tag, at)
    await forEachLimit(wanted, PARALLEL_REQUESTS, async (tag) => {
      try {
        const body = await fetchScalarMetadata(trainId.value, tag)
        if (!call.current) return
        const metadatas = Array.isArray(body.metadatas) ? body.metadatas : []
        const previous = scalarData.get(tag)
        // Same points as drawn: keep the old array so charts do not redraw for nothing.
        if (previous?.metadatas && sameSeries(previous.metadatas, metadatas)) return
        scalarData.set(tag, { metadatas, error: null })
      } catch (err) {
        if (isCancel(err) || !call.current) return
        const previous = scalarData.get(tag)
        scalarData.set(tag, previous?.metadatas ? previous : { metadatas: null, error: err })
      } finally {
        if (reading.get(tag) === at) reading.delete(tag)
        if (call.current) onSettled(tag)
      }
    })
  }

  async function loadPoints() {
    const call = job
    if (loaded.value) {
      await loadScalars(visibleTags.value, call)
      return
    }
    // First load: the page is laid out once, when the first chart's points are in. Laying it
    // out before would keep the main thread busy while they arrive and draw that chart later.
    await nextTick() // the visible tags follow the new tag list through the page's watchers
    if (!call.current) return
    const tags = visibleTags.value
    if (!tags.length) loaded.value = true
    await loadScalars(tags, call, (tag) => {
      if (tag === tags[0]) loaded.value = true
    })
    if (call.current) loaded.value = true
  }

  watch(trainId, () => {
    job = jobCalls.begin()
    loaded.value = false
    scalarData.clear()
    reading.clear()
  })
  watch(revision, loadPoints)

  watch(visibleTags, (tags) => {
    const missing = tags.filter((tag) => !scalarData.has(tag))
    if (missing.length && loaded.value) loadScalars(missing, job)
  })

  return { allTags, loaded, jobLoading, integrity, error, entry, revision, reload: () => reload() }
}

function sameSeries(a, b) {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i += 1) {
    if (a[i].step !== b[i].step || a[i].wall_time !== b[i].wall_time || !Object.is(a[i].value, b[i].value)) return false
  }
  return true
}
