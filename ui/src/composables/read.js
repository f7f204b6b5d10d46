import { ref, shallowRef, watch } from 'vue'
import { useLatestCall } from './jobData.js'
import { useRefresh } from './refresh.js'

/**
 * One answer a page reads from the server, the newest read winning (useLatestCall). `read()`
 * fetches it and its answer becomes `value`; with `keepEqual`, an answer equal to the last one
 * (as JSON) leaves `value` as it is, so what is drawn from it (a chart, the user's brushing)
 * stays. A failure sets `error` (cleared by the next answer); `loaded` turns true once a read
 * settled either way, `loading` says whether one is under way.
 *
 * `key` (a getter; optional) names what is read: whenever it changes the page forgets the old
 * answer and reads again, and a falsy key reads nothing. Without `key` it reads once at once.
 * With `refresh`, every refresh (auto or manual) reads again.
 *
 * Returns `{value, loaded, loading, error, read, reset}`.
 */
export function useRead(fetch, { key = null, refresh = false, keepEqual = false } = {}) {
  const value = shallowRef(null)
  const loaded = ref(false)
  const loading = ref(false)
  const error = ref(null)
  const latest = useLatestCall()
  let lastText = ''

  async function read() {
    if (key && !key()) return
    loading.value = true
    const result = await latest.run(fetch)
    if (!result) return
    loading.value = false
    loaded.value = true
    if (result.error) {
      error.value = result.error
      return
    }
    const text = keepEqual ? JSON.stringify(result.value) : ''
    if (!keepEqual || text !== lastText) value.value = result.value
    lastText = text
    error.value = null
  }

  function reset() {
    latest.drop()
    lastText = ''
    value.value = null
    loaded.value = false
    loading.value = false
    error.value = null
  }

  if (key)
    watch(
      key,
      () => {
        reset()
        read()
      },
      { immediate: true },
    )
  else read()
  if (refresh) useRefresh(read)

  return { value, loaded, loading, error, read, reset }
}
