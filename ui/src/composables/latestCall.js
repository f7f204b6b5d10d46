import { getCurrentScope, onScopeDispose } from 'vue'
import { isCancel } from '@/api/http.js'

/**
 * Async work of which only the newest call counts: a page or card that reads again (another job,
 * another tag, a refresh) must not let an older, slower answer land over the newer one, nor let
 * any answer land after it is gone.
 *
 * `begin()` starts a call and supersedes every earlier one; the returned call's `current` stays
 * true until a later `begin()`, `drop()` or the end of the owner's scope (a component's unmount).
 * `run(task)` is the one-step form: it resolves to `{value}` or `{error}` while the call is
 * current, and to `null` when it was superseded or the request cancelled, so a caller returns on
 * null. `busy` says whether the newest call is still under way (a silent refresh skips then).
 */
export function useLatestCall() {
  let generation = 0
  let pending = false

  function begin() {
    const gen = ++generation
    pending = true
    return {
      get current() {
        return gen === generation
      },
      end() {
        if (gen === generation) pending = false
      },
    }
  }

  async function run(task) {
    const call = begin()
    try {
      const value = await task()
      return call.current ? { value } : null
    } catch (error) {
      return call.current && !isCancel(error) ? { error } : null
    } finally {
      call.end()
    }
  }

  function drop() {
    generation += 1
    pending = false
  }

  if (getCurrentScope()) onScopeDispose(drop)

  return {
    begin,
    run,
    drop,
    get busy() {
      return pending
    },
  }
}
