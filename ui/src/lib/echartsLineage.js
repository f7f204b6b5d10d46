// The ECharts parts the lineage pages' parallel-coordinates chart needs (their own chunk), on top
// of the shared base of lib/echarts.js. The optimization objective's charts add theirs in
// lib/echartsLineageTargets.js, so the parallel chart waits for none of them.
import { ParallelChart } from 'echarts/charts'
import { ParallelComponent } from 'echarts/components'
import { echarts } from './echarts.js'

echarts.use([ParallelChart, ParallelComponent])

export { echarts }
