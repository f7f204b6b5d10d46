// ECharts with only what every chart of the UI needs (a line chart on a cartesian grid, drawn on
// canvas), plus the light/dark themes. A chart needing more registers it itself with
// `echarts.use([...])`, so that code lands in the chunk of the page using it: the dashboard's
// first chart then waits only for this part (the scalar page adds tooltip, brush and markLine).
// Named imports, not `import * as`: a namespace object handed around keeps every export of
// echarts/core in the bundle.
import { init, registerTheme, use } from 'echarts/core'
import { LineChart } from 'echarts/charts'
import { GridComponent } from 'echarts/components'
import { CanvasRenderer } from 'echarts/renderers'

use([LineChart, GridComponent, CanvasRenderer])

export const ACCENT = '#00a5a7'

function themeOf({ text, subtle, axis, split, tooltipBg, tooltipBorder, tooltipText, accent }) {
  const axisStyle = {
    axisLine: { show: true, lineStyle: { color: axis } },
    axisTick: { show: false },
    axisLabel: { color: subtle },
    splitLine: { show: true, lineStyle: { color: split } },
    nameTextStyle: { color: subtle },
  }
  return {
    color: [accent, '#6c92fa', '#e6a23c', '#f56c6c', '#9b59b6'],
    backgroundColor: 'transparent',
    textStyle: { color: text },
    valueAxis: axisStyle,
    categoryAxis: axisStyle,
    timeAxis: axisStyle,
    logAxis: axisStyle,
    tooltip: {
      backgroundColor: tooltipBg,
      borderColor: tooltipBorder,
      textStyle: { color: tooltipText },
    },
    toolbox: { iconStyle: { borderColor: subtle }, emphasis: { iconStyle: { borderColor: accent } } },
    line: { symbol: 'circle', symbolSize: 4, lineStyle: { width: 1.5 } },
  }
}

export const CHART_THEMES = {
  light: themeOf({
    text: '#303133',
    subtle: '#909399',
    axis: '#c0c4cc',
    split: '#ebeef5',
    tooltipBg: 'rgba(255,255,255,0.96)',
    tooltipBorder: '#dcdfe6',
    tooltipText: '#303133',
    accent: ACCENT,
  }),
  dark: themeOf({
    text: '#d0d3d9',
    subtle: '#a0a6b0',
    axis: '#5b6069',
    split: '#3a3d42',
    tooltipBg: 'rgba(40,42,46,0.96)',
    tooltipBorder: '#4c4f55',
    tooltipText: '#e5e7eb',
    accent: '#1fc6c8',
  }),
}

for (const [name, theme] of Object.entries(CHART_THEMES)) registerTheme(`mindinsight-${name}`, theme)

/** The name of the ECharts theme registered above for the app's theme ('light' or 'dark'). */
function themeName(theme) {
  return `mindinsight-${theme === 'dark' ? 'dark' : 'light'}`
}

/**
 * The part of the ECharts API the UI uses, with the names of the chart themes: composables/echart.js
 * draws with the registration module it is handed, so it loads no ECharts itself.
 */
export const echarts = { init, use, themeName }
