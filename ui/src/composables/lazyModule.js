import { markRaw, shallowRef, watch } from 'vue'

const HIDDEN_TAB_MS = 200

/**
 * The exports of the module `load()` brings, once `when()` is true (null until then): parts of a
 * page its first drawing does not need, which a stand-in of the same size holds the place of
 * until they are in. Asked for once the page has drawn what came with `when()` turning true
 * (`afterPaint`); loaded once; a failed load leaves the stand-in.
 */
export function useLazyModule(load, when = () => true) {
  const module = shallowRef(null)
  let asked = false
  watch(
    when,
    (wanted) => {
      if (!wanted || asked) return
      asked = true
      afterPaint(() =>
        load().then(
          (loaded) => (module.value = markRaw({ ...loaded })),
          (error) => console.error(error),
        ),
      )
    },
    { immediate: true },
  )
  return module
}

/**
 * Calls `callback` once the browser has drawn what the current task put on the page: asking for
 * a module starts a request per file (a few ms of the main thread each), which would otherwise
 * come before that drawing. A hidden tab draws no frames: then after `HIDDEN_TAB_MS`.
 */
export function afterPaint(callback) {
  let done = false
  const run = () => {
    if (done) return
    done = true
    callback()
  }
  requestAnimationFrame(() => setTimeout(run))
  setTimeout(run, HIDDEN_TAB_MS)
}
