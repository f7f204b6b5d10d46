// The cards of the training dashboard, in the original's order. A card is a component taking
// `{trainId, plugins, revision}` (see components/dashboard/DashboardCard.vue for the frame); the
// computational graph, data graph, loss landscape and operator cards join this list when their
// pages arrive (original order: scalar, histogram, tensor, graph, data graph, image, loss, operators).
import HistogramCard from '../../components/dashboard/HistogramCard.vue'
import ImageCard from '../../components/dashboard/ImageCard.vue'
import ScalarCard from '../../components/dashboard/ScalarCard.vue'
import TensorCard from '../../components/dashboard/TensorCard.vue'

export default [
  { kind: 'scalar', component: ScalarCard },
  { kind: 'histogram', component: HistogramCard },
  { kind: 'tensor', component: TensorCard },
  { kind: 'image', component: ImageCard },
]
