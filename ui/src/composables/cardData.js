import { computed, ref, shallowRef, watch } from 'vue'
import { keepOrFirst, tagsOf } from '@/lib/dashboard.js'
import { useLatestCall } from './jobData.js'

/** The props every training-dashboard card takes (views/training-dashboard/cards.js). */
export const CARD_PROPS = {
  trainId: { type: String, required: true },
  plugins: { type: Object, required: true },
  revision: { type: Number, required: true },
}

const nothing = (what) => !what?.length

/**
 * The data of one training-dashboard card (its props are CARD_PROPS). `read(what)` reads what the
 * card shows: with `kind` (a plugin name) one tag of the job's tags of that kind, the one shown
 * while the job still has it, else the first (`choose(tags, shown)` picks otherwise, e.g. the
 * first two); without `kind`, the job itself. It runs once per dashboard revision (with
 * `everyRevision: false`, once per job and `what`), the newest call winning; its answer becomes
 * `data` (left as it is while `same(old, new)`, so what is drawn from it stays) and `what` becomes
 * `shown`. A failed read sets `error`; when it was of something else than shown, the card drops
 * the old data. Another job empties the card first. `show(what)` reads another thing at once (a
 * "switch tag" button). `state` is DashboardCard's: loading, empty, error or ready.
 *
 * Returns `{tags, shown, data, error, state, frame, show}` (`frame`: `{state, error}` for DashboardCard).
 */
export function useCardData(
  props,
  { kind = '', choose = keepOrFirst, read, same = () => false, everyRevision = true },
) {
  const tags = computed(() => (kind ? tagsOf(props.plugins, kind) : []))
  const shown = shallowRef('')
  const data = shallowRef(null)
  const error = ref(null)
  const settled = ref(false)
  const latest = useLatestCall()
  let readKey = ''

  const state = computed(() => {
    if (kind && !tags.value.length) return props.revision > 0 ? 'empty' : 'loading'
    if (data.value) return 'ready'
    if (error.value) return 'error'
    return settled.value ? 'empty' : 'loading'
  })

  async function show(what) {
    const key = JSON.stringify([props.trainId, everyRevision ? props.revision : 0, what])
    if (nothing(what) || key === readKey) return
    readKey = key
    const result = await latest.run(() => read(what))
    if (!result) return
    const sameWhat = JSON.stringify(what) === JSON.stringify(shown.value)
    settled.value = true
    if (result.error) {
      error.value = result.error
      if (!sameWhat) data.value = null
      return
    }
    if (!sameWhat || data.value === null || !same(data.value, result.value)) data.value = result.value
    shown.value = what
    error.value = null
  }

  watch(
    [() => props.trainId, () => props.revision, tags],
    ([trainId], previous) => {
      if (previous && trainId !== previous[0]) {
        latest.drop()
        readKey = ''
        shown.value = ''
        data.value = null
        error.value = null
        settled.value = false
      }
      show(kind ? choose(tags.value, shown.value) : props.trainId)
    },
    { immediate: true },
  )

  // DashboardCard's `state` and `error`, for `v-bind`.
  const frame = computed(() => ({ state: state.value, error: error.value }))

  return { tags, shown, data, error, state, frame, show }
}
