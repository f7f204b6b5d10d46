import { computed, ref, shallowRef, watch } from 'vue'
import { useLatestCall } from '@/composables/latestCall.js'
import { pickStepIndex, sortBySteps } from '@/lib/stepSelection.js'

/**
 * The data of one tag, as a card of a per-tag page reads it: `read()` runs at once and again
 * whenever `inputs` (a getter of what the data depends on: train job, tag, the job's `revision`,
 * ...) changes, or on `reload()`. Only the newest read lands, none after the card is gone. A failed
 * re-read keeps the data shown (the error only shows while nothing was read). While `when()` is
 * false (say, a view not shown) no read starts; one starts when it turns true.
 *
 * Returns `{data, loaded, error, reload}`; `reload()` resolves once its answer has landed.
 */
export function useTagData(inputs, read, { when = () => true } = {}) {
  const data = shallowRef(null)
  const loaded = ref(false)
  const error = ref(null)
  const latest = useLatestCall()

  async function reload() {
    if (!when()) return
    const result = await latest.run(read)
    if (!result) return
    if (result.error) {
      if (!loaded.value) error.value = result.error
      return
    }
    data.value = result.value
    error.value = null
    loaded.value = true
  }

  watch(() => [when(), inputs()], reload, { immediate: true })
  return { data, loaded, error, reload }
}

/**
 * The retained steps of one tag (`read()` resolves to entries with a `step`) and the one a step
 * slider shows: at first the latest; after a re-read the same step if still retained, else the
 * nearest one, or again the latest when the slider was left there (it follows the training).
 *
 * Returns `{entries, index, current, loaded, error, reload}` (`index` is the slider's v-model).
 */
export function useTagSteps(inputs, read) {
  const { data, loaded, error, reload } = useTagData(inputs, async () => sortBySteps(await read()))
  const entries = computed(() => data.value || [])
  const index = ref(-1)
  const current = computed(() => (index.value >= 0 ? entries.value[index.value] || null : null))

  // Synchronous, so that no render sees the new entries with the index into the old ones.
  watch(
    data,
    (values, previous) => {
      const chosen = previous && index.value >= 0 ? (previous[index.value]?.step ?? null) : null
      const follow = !previous || index.value === previous.length - 1
      index.value = pickStepIndex(
        values.map((entry) => entry.step),
        chosen,
        follow,
      )
    },
    { flush: 'sync' },
  )

  return { entries, index, current, loaded, error, reload }
}
