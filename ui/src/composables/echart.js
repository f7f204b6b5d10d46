import { onBeforeUnmount, onMounted, ref, shallowRef, watch } from 'vue'
import { useAppStore } from '@/stores/app.js'

// No import of ECharts here: the caller hands over its registration module (lib/echarts*.js), so
// the graph page can follow sizes without loading ECharts and each page's chart parts stay in its
// own chunk.

/** Calls `callback(entry)` on every size change of `element`; returns the function that stops it. */
export function observeSize(element, callback) {
  const observer = new ResizeObserver(([entry]) => callback(entry))
  observer.observe(element)
  return () => observer.disconnect()
}

/**
 * One ECharts chart drawn in the element of the template ref `target`.
 *
 * The chart is made on mounting (or by `init()` with `lazy`, for charts that wait for their
 * data), takes the app's light or dark chart theme and follows theme changes, resizes with its
 * element, and is disposed on unmounting (or by `dispose()`, after which `init()` makes a new one).
 * `rendered` turns true each time ECharts reports the drawing finished (a caller about to redraw
 * may set it false). The instance is also the element's `hook` property: the browser tests read
 * the drawn option from it.
 *
 * Options:
 * - `echarts` (required): the registration module of the chart kinds drawn (lib/echarts*.js);
 * - `setup(chart)`: registers the caller's event handlers on a new chart;
 * - `draw()`: draws the chart; called right after `setup` and after a theme change;
 * - `onResize()`: called before the chart takes its element's new size;
 * - `lazy`: not made on mounting, only by `init()`;
 * - `hook`: the element property holding the instance, `__miChart` by default.
 */
export function useEChart(target, { echarts, setup, draw, onResize, lazy, hook = '__miChart' }) {
  const store = useAppStore()
  const chart = shallowRef(null)
  const rendered = ref(false)
  let stopResize = null

  /** Makes the chart (once the element exists and unless it is made already); returns it. */
  function init() {
    const element = target.value
    if (element && !chart.value) {
      const instance = (chart.value = element[hook] = echarts.init(element, echarts.themeName(store.theme)))
      instance.on('finished', () => (rendered.value = true))
      setup?.(instance)
      // The observer also reports the size the chart was just drawn at (once, as it starts):
      // only a new size is drawn again, not the whole chart a second time before it is shown.
      stopResize = observeSize(element, () => {
        if (element.clientWidth === instance.getWidth() && element.clientHeight === instance.getHeight()) return
        onResize?.()
        instance.resize()
      })
      draw?.()
    }
    return chart.value
  }

  function dispose() {
    stopResize?.()
    chart.value?.dispose()
    chart.value = null
  }

  /** Sets the option on the chart, if made; by default the option replaces the drawn one. */
  function setOption(option, settings = { notMerge: true }) {
    chart.value?.setOption(option, settings)
  }

  watch(
    () => store.theme,
    (theme) => {
      if (!chart.value) return
      chart.value.setTheme(echarts.themeName(theme))
      draw?.()
    },
  )

  if (!lazy) onMounted(init)
  onBeforeUnmount(dispose)

  return { chart, rendered, init, dispose, setOption }
}
