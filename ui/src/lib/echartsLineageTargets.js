// The ECharts parts of the model lineage's optimization objective (TargetPanel, loaded after the
// parallel chart is drawn): its pie, bars and scatter with their tooltips and the pie's legend.
import { BarChart, PieChart, ScatterChart } from 'echarts/charts'
import { LegendComponent, TooltipComponent } from 'echarts/components'
import { echarts } from './echartsLineage.js'

echarts.use([BarChart, PieChart, ScatterChart, TooltipComponent, LegendComponent])

export { echarts }
