import { markRaw, shallowRef, watch } from 'vue'
import { afterPaint } from '@/lib/afterPaint.js'

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
