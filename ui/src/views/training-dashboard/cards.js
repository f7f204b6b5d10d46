// The cards of the training dashboard. A card is a component taking
// `{trainId, plugins, revision}` (see components/dashboard/DashboardCard.vue for the frame), in the
// original's order: scalar, histogram, tensor, graph, data graph, image, loss landscape, then
// TensorBoard's text, then reduced-precision operators. A card with `shown(plugins)` is left out when that says false.
// The first card (scalar) is in the dashboard's own chunk and emits `settled` once its chart is
// drawn (or it has nothing to draw); the others are `deferred`: their code (and the chart parts
// only they use) is fetched after that, so the first chart waits for no other card's code.
import { defineAsyncComponent } from 'vue'
import ScalarCard from '@/components/dashboard/ScalarCard.vue'

export default [
  { kind: 'scalar', component: ScalarCard },
  {
    kind: 'histogram',
    deferred: true,
    component: defineAsyncComponent(() => import('@/components/dashboard/HistogramCard.vue')),
  },
  {
    kind: 'tensor',
    deferred: true,
    component: defineAsyncComponent(() => import('@/components/dashboard/TensorCard.vue')),
  },
  {
    kind: 'graph',
    deferred: true,
    component: defineAsyncComponent(() => import('@/components/dashboard/GraphCard.vue')),
  },
  {
    kind: 'dataGraph',
    deferred: true,
    component: defineAsyncComponent(() => import('@/components/dashboard/DataGraphCard.vue')),
  },
  {
    kind: 'image',
    deferred: true,
    component: defineAsyncComponent(() => import('@/components/dashboard/ImageCard.vue')),
  },
  {
    kind: 'landscape',
    deferred: true,
    component: defineAsyncComponent(() => import('@/components/dashboard/LandscapeCard.vue')),
  },
  {
    // TensorBoard's text plugin: only for a job with text tags.
    kind: 'text',
    deferred: true,
    shown: (plugins) => Boolean(plugins?.text?.length),
    component: defineAsyncComponent(() => import('@/components/dashboard/TextCard.vue')),
  },
  {
    // Only for a job with a graph (`shown`), as the original's "Reduced Precision Operator Analysis".
    kind: 'operatorPrecision',
    deferred: true,
    shown: (plugins) => Boolean(plugins?.graph?.length),
    component: defineAsyncComponent(() => import('@/components/dashboard/OperatorPrecisionCard.vue')),
  },
]
