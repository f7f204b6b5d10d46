import { defineAsyncComponent, inject, provide } from 'vue'
import { useLazyModule } from '@/composables/lazyModule.js'

const KEY = Symbol('per-tag late parts')
const load = () => import('./lateParts.js')

/**
 * PerTagPage's side: loads the per-tag pages' late parts (lateParts.js) once `when()` is true and
 * gives them to the controls and cards inside. Returns them (null until loaded).
 */
export function provideLateParts(when) {
  const parts = useLazyModule(load, when)
  provide(KEY, parts)
  return parts
}

/**
 * The per-tag page's late parts, null until they are in: a control shows an inert stand-in of
 * the same size until then. Outside a per-tag page they are loaded at once.
 */
export function useLateParts() {
  return inject(KEY, () => useLazyModule(load), true)
}

/** One of the late parts as a component of its own (a notice, an empty state): loaded when made. */
export function latePart(name) {
  return defineAsyncComponent(() => load().then((parts) => parts[name]))
}
