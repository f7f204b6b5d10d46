import { fetchTensorSteps } from '@/api/tensors.js'
import { firstCardTags } from '@/lib/perTagFirstCards.js'
import { jobReads, tagReads } from '@/router/firstReads.js'

export default [
  {
    path: '/train-manage/tensor',
    name: 'tensor',
    component: () => import('./TensorPage.vue'),
    // A card reads its tag's steps first, then what its view shows at the chosen step.
    meta: { firstReads: jobReads('train_id', tagReads('tensor', firstCardTags, fetchTensorSteps)) },
  },
]
