import { jobReads } from '@/router/firstReads.js'

// TensorBoard's text plugin: the per-tag page frame with the text card. One lazy import per
// route: the router reads every routes.js at start, so each import() here is first-load JS.
export default [
  {
    path: '/train-manage/text',
    name: 'text',
    component: () => import('./TextPage.vue'),
    meta: { firstReads: jobReads('train_id') },
  },
]
