// ECharts' tree series, registered only by the data map page and its dashboard card (their own
// chunk), on top of the shared base of lib/echarts.js.
import { TreeChart } from 'echarts/charts'
import { echarts } from './echarts.js'

echarts.use([TreeChart])

export { echarts }
