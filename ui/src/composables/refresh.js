import { getCurrentScope, onBeforeUnmount, onScopeDispose, watch } from 'vue'
import { useAppStore } from '@/stores/app.js'

/** Drives auto refresh: bumps the store's refreshTick every interval while enabled (App-level). */
export function useAutoRefreshTimer() {
  const store = useAppStore()
  let timer = null
  const stop = () => {
    if (timer !== null) clearInterval(timer)
    timer = null
  }
  watch(
    () => [store.autoRefresh, store.refreshInterval],
    ([enabled, seconds]) => {
      stop()
      if (!enabled) return
      timer = setInterval(() => {
        // A hidden tab does not poll; it catches up on the next period after becoming visible.
        if (typeof document === 'undefined' || !document.hidden) store.requestRefresh()
      }, seconds * 1000)
    },
    { immediate: true },
  )
  onBeforeUnmount(stop)
}

/** Calls `callback` whenever a refresh (auto or manual) is due. */
export function useRefresh(callback) {
  const store = useAppStore()
  watch(
    () => store.refreshTick,
    () => callback(),
  )
}

/**
 * A read repeated while the server is still loading what it answers (a job into its cache, the
 * summary list's scan): `schedule()` calls `callback` once after `ms` (a later schedule() moves
 * the call), `stop()` calls it off; the end of the owner's scope (a component's unmount) stops it.
 */
export function usePoll(callback, ms) {
  let timer = null

  function stop() {
    clearTimeout(timer)
    timer = null
  }

  function schedule() {
    stop()
    timer = setTimeout(callback, ms)
  }

  if (getCurrentScope()) onScopeDispose(stop)
  return { schedule, stop }
}
