// The ECharts parts only the lineage pages draw (their own chunk), on top of the shared base of
// lib/echarts.js: parallel coordinates, and the optimization objective's pie, bars and scatter.
import { BarChart, ParallelChart, PieChart, ScatterChart } from 'echarts/charts'
import { LegendComponent, ParallelComponent, TooltipComponent } from 'echarts/components'
import { echarts } from './echarts.js'

echarts.use([ParallelChart, ParallelComponent, BarChart, PieChart, ScatterChart, TooltipComponent, LegendComponent])

export { echarts }
