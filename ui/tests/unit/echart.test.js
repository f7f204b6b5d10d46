import { createRenderer, h, markRaw, nextTick, ref } from 'vue'
import { createPinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useEChart } from '@/composables/echart.js'
import { useResize } from '@/composables/resize.js'
import { useAppStore } from '@/stores/app.js'

// The unit tests run without a DOM: components are mounted by a renderer of plain objects, and
// ECharts and ResizeObserver are stand-ins that record what the composables ask of them. Elements
// are marked raw, as Vue leaves DOM elements: a template ref then holds the element itself.

const { createApp } = createRenderer({
  createElement: (tag) => markRaw({ tag, children: [] }),
  createText: (text) => ({ text }),
  createComment: (text) => ({ comment: text }),
  setText: (node, text) => (node.text = text),
  setElementText: (node, text) => (node.text = text),
  insert: (child, parent, anchor) => {
    const at = anchor ? parent.children.indexOf(anchor) : -1
    parent.children.splice(at < 0 ? parent.children.length : at, 0, child)
    child.parent = parent
  },
  remove: (child) => {
    const siblings = child.parent?.children
    if (siblings) siblings.splice(siblings.indexOf(child), 1)
  },
  parentNode: (node) => node.parent ?? null,
  nextSibling: (node) => {
    const siblings = node.parent?.children || []
    return siblings[siblings.indexOf(node) + 1] ?? null
  },
  patchProp: () => {},
})

/** Mounts a component whose setup calls `use(elementRef)`; returns what it returned, the element and the app. */
function mount(use, pinia = createPinia()) {
  let used = null
  const target = ref(null)
  const app = createApp({
    setup() {
      used = use(target)
      return () => h('div', { ref: target })
    },
  })
  app.use(pinia)
  app.mount({ tag: 'root', children: [] })
  return { used, element: target.value, app, store: useAppStore(pinia) }
}

function fakeEcharts() {
  const made = []
  return {
    made,
    themeName: (theme) => `test-${theme}`,
    init(element, theme) {
      const handlers = {}
      const zrHandlers = {}
      const chart = {
        element,
        theme,
        handlers,
        zrHandlers,
        calls: [],
        // ECharts draws at its element's size when made and on resize().
        width: element.clientWidth ?? 0,
        height: element.clientHeight ?? 0,
        getWidth: () => chart.width,
        getHeight: () => chart.height,
        on: (name, handler) => (handlers[name] = handler),
        getZr: () => ({ on: (name, handler) => (zrHandlers[name] = handler) }),
        setOption: (option, settings) => chart.calls.push(['setOption', option, settings]),
        setTheme: (name) => chart.calls.push(['setTheme', name]),
        resize: () => {
          chart.calls.push(['resize'])
          chart.width = element.clientWidth
          chart.height = element.clientHeight
        },
        dispose: () => chart.calls.push(['dispose']),
      }
      made.push(chart)
      return chart
    },
  }
}

let observers = []
class FakeResizeObserver {
  constructor(callback) {
    this.callback = callback
    this.observed = []
    this.connected = true
    observers.push(this)
  }
  observe(element) {
    this.observed.push(element)
  }
  disconnect() {
    this.connected = false
  }
  /** What the browser does when the element's size changes (and once as it starts observing). */
  fire(width, height) {
    for (const element of this.observed) Object.assign(element, { clientWidth: width, clientHeight: height })
    this.callback([{ contentRect: { width, height } }])
  }
}

beforeEach(() => {
  observers = []
  globalThis.ResizeObserver = FakeResizeObserver
})

afterEach(() => {
  delete globalThis.ResizeObserver
})

describe('useEChart', () => {
  it('makes the chart on mounting, sets it up, draws it, hooks it on the element and reports its drawing', () => {
    const echarts = fakeEcharts()
    const log = []
    const { used, element } = mount((target) =>
      useEChart(target, {
        echarts,
        setup(chart) {
          log.push(['setup', chart])
          chart.on('click', () => log.push('click'))
        },
        draw: () => log.push('draw'),
      }),
    )
    expect(echarts.made).toHaveLength(1)
    const chart = echarts.made[0]
    expect(chart.element).toBe(element)
    expect(chart.theme).toBe('test-light')
    expect(element.__miChart).toBe(chart)
    expect(used.chart.value).toBe(chart)
    expect(log).toEqual([['setup', chart], 'draw'])

    expect(used.rendered.value).toBe(false)
    chart.handlers.finished()
    expect(used.rendered.value).toBe(true)
    chart.handlers.click()
    expect(log.at(-1)).toBe('click')

    used.setOption({ series: [] })
    used.setOption({ title: {} }, { replaceMerge: ['title'] })
    expect(chart.calls).toEqual([
      ['setOption', { series: [] }, { notMerge: true }],
      ['setOption', { title: {} }, { replaceMerge: ['title'] }],
    ])
  })

  it('re-themes and redraws the chart when the app theme changes', async () => {
    const echarts = fakeEcharts()
    let draws = 0
    const { store } = mount((target) => useEChart(target, { echarts, draw: () => (draws += 1) }))
    const chart = echarts.made[0]
    store.setTheme('dark')
    await nextTick()
    expect(chart.calls).toEqual([['setTheme', 'test-dark']])
    expect(draws).toBe(2)
    store.setTheme('light')
    await nextTick()
    expect(chart.calls.at(-1)).toEqual(['setTheme', 'test-light'])
    expect(draws).toBe(3)
  })

  it('starts in the dark theme when the app is dark', () => {
    const echarts = fakeEcharts()
    const pinia = createPinia()
    useAppStore(pinia).setTheme('dark')
    const { app } = mount((target) => useEChart(target, { echarts }), pinia)
    expect(echarts.made[0].theme).toBe('test-dark')
    app.unmount()
  })

  it('follows its element size, and lets go of chart and observer on unmounting', () => {
    const echarts = fakeEcharts()
    const log = []
    const { element, app } = mount((target) => useEChart(target, { echarts, onResize: () => log.push('onResize') }))
    const chart = echarts.made[0]
    expect(observers).toHaveLength(1)
    expect(observers[0].observed).toEqual([element])
    observers[0].fire(300, 200)
    expect(log).toEqual(['onResize'])
    expect(chart.calls).toEqual([['resize']])
    // A report of the size already drawn (as the observer's first one) draws nothing again.
    observers[0].fire(300, 200)
    expect(log).toEqual(['onResize'])
    expect(chart.calls).toEqual([['resize']])

    app.unmount()
    expect(chart.calls.at(-1)).toEqual(['dispose'])
    expect(observers[0].connected).toBe(false)
  })

  it('with `lazy`, waits for init(); dispose() and init() make a fresh chart under the chosen hook', () => {
    const echarts = fakeEcharts()
    let draws = 0
    const { used, element } = mount((target) =>
      useEChart(target, { echarts, lazy: true, hook: 'miChart', draw: () => (draws += 1) }),
    )
    expect(echarts.made).toHaveLength(0)
    expect(used.chart.value).toBeNull()
    used.setOption({ series: [] }) // nothing to draw on yet: no error

    const first = used.init()
    expect(used.init()).toBe(first)
    expect(echarts.made).toHaveLength(1)
    expect(element.miChart).toBe(first)
    expect(element.__miChart).toBeUndefined()
    expect(draws).toBe(1)

    used.dispose()
    expect(first.calls).toEqual([['dispose']])
    expect(observers[0].connected).toBe(false)
    expect(used.chart.value).toBeNull()
    const second = used.init()
    expect(second).not.toBe(first)
    expect(element.miChart).toBe(second)
    expect(observers).toHaveLength(2)
    expect(draws).toBe(2)
  })

  it('does not touch a disposed chart on theme changes', async () => {
    const echarts = fakeEcharts()
    let draws = 0
    const { used, store } = mount((target) => useEChart(target, { echarts, draw: () => (draws += 1) }))
    used.dispose()
    store.setTheme('dark')
    await nextTick()
    expect(echarts.made[0].calls).toEqual([['dispose']])
    expect(draws).toBe(1)
  })
})

describe('useResize', () => {
  it('reports each size of the element until unmounting', () => {
    const sizes = []
    const { element, app } = mount((target) =>
      useResize(target, (entry) => sizes.push([entry.contentRect.width, entry.contentRect.height])),
    )
    expect(observers).toHaveLength(1)
    expect(observers[0].observed).toEqual([element])
    observers[0].fire(640, 480)
    observers[0].fire(320, 240)
    expect(sizes).toEqual([
      [640, 480],
      [320, 240],
    ])
    app.unmount()
    expect(observers[0].connected).toBe(false)
  })
})

describe('the registration module handed to useEChart', () => {
  it('names the chart theme registered for each app theme', async () => {
    const { echarts } = await import('@/lib/echarts.js')
    expect(echarts.themeName('dark')).toBe('mindinsight-dark')
    expect(echarts.themeName('light')).toBe('mindinsight-light')
    expect(echarts.themeName('anything else')).toBe('mindinsight-light')
  })
})
