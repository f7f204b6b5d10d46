import { onBeforeUnmount, onMounted } from 'vue'
import { observeSize } from './echart.js'

// Apart from echart.js so that the dashboard's first chart does not load it: only the graph
// canvas and the landscape box follow an element's size without an ECharts chart.

/**
 * Follows the size of the element of the template ref `target` from the component's mounting to
 * its unmounting: `callback(entry)` gets each ResizeObserver entry (`entry.contentRect`).
 */
export function useResize(target, callback) {
  let stop = null
  onMounted(() => {
    if (target.value) stop = observeSize(target.value, callback)
  })
  onBeforeUnmount(() => stop?.())
}
