// The ECharts parts only the profiler's operator page draws (its own chunk), on top of the shared
// base of lib/echarts.js.
import { BarChart, PieChart } from 'echarts/charts'
import { LegendComponent, TooltipComponent } from 'echarts/components'
import { echarts } from './echarts.js'

echarts.use([PieChart, BarChart, TooltipComponent, LegendComponent])

export { echarts }
