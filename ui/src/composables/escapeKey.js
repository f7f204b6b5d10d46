import { onBeforeUnmount, toValue, watch } from 'vue'

/**
 * Escape leaves a full screen (or any other state shown over the page): while `active` (a ref or a
 * getter) is true, a press of Escape anywhere calls `leave`. The listener exists only meanwhile.
 */
export function useEscapeToLeave(active, leave) {
  function onKeydown(event) {
    if (event.key === 'Escape' && toValue(active)) leave()
  }
  const stop = () => window.removeEventListener('keydown', onKeydown)
  watch(
    () => Boolean(toValue(active)),
    (on) => {
      if (on) window.addEventListener('keydown', onKeydown)
      else stop()
    },
    { immediate: true },
  )
  onBeforeUnmount(stop)
}
