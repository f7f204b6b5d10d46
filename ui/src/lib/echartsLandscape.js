// The chart parts only the loss landscape pages and card draw (their own chunk), on top of the
// shared base of lib/echarts.js: echarts-gl's surface, 3-D line and points with their 3-D grid,
// and the 2-D maps' scatter, custom (filled bands) and colour legend.
import { Line3DChart, Scatter3DChart, SurfaceChart } from 'echarts-gl/charts'
import { Grid3DComponent } from 'echarts-gl/components'
import { CustomChart, ScatterChart } from 'echarts/charts'
import { MarkAreaComponent, MarkPointComponent, TooltipComponent, VisualMapComponent } from 'echarts/components'
import { echarts } from './echarts.js'

echarts.use([
  SurfaceChart,
  Line3DChart,
  Scatter3DChart,
  Grid3DComponent,
  CustomChart,
  ScatterChart,
  MarkPointComponent,
  MarkAreaComponent,
  TooltipComponent,
  VisualMapComponent,
])

export { echarts }
