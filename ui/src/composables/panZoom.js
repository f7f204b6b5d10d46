import { onMounted, ref } from 'vue'
import { select } from 'd3-selection'
import { zoom, zoomIdentity } from 'd3-zoom'

export { zoomIdentity }

/**
 * Pan and zoom of the SVG drawing in the template ref `svg` (d3-zoom), from the component's
 * mounting on: a drag pans, the wheel zooms, within `scaleExtent`. A double click (it opens a
 * graph's scope) and a ctrl-wheel (the browser's own zoom) are left alone. `transform` is the
 * current transform; `moveTo(next)` sets it (animating nothing), also before the mounting.
 * Without `enabled` the drawing does not follow the pointer: only `moveTo` moves it.
 */
export function usePanZoom(svg, { scaleExtent = [0.05, 4], enabled = true } = {}) {
  const transform = ref(zoomIdentity)
  let behaviour = null

  onMounted(() => {
    if (!enabled) return
    behaviour = zoom()
      .scaleExtent(scaleExtent)
      .filter((event) => !event.ctrlKey && !event.button && event.type !== 'dblclick')
      .on('zoom', (event) => {
        transform.value = event.transform
      })
    select(svg.value).call(behaviour)
  })

  function moveTo(next) {
    if (behaviour && svg.value) select(svg.value).call(behaviour.transform, next)
    else transform.value = next
  }

  return { transform, moveTo }
}
