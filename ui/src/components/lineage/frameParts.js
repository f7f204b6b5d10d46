// What a lineage page's frame (LineageFrame) builds only once the parallel chart is drawn, or in
// rare states (an error, no runs, a notice about the stored tags and remarks): the query box and
// Element's parts of those states. One lazy module, so the chart waits for none of it; a stand-in
// of the same look holds the query box's place meanwhile.
import 'element-plus/es/components/alert/style/css'
import 'element-plus/es/components/button/style/css'
import 'element-plus/es/components/empty/style/css'
import 'element-plus/es/components/input/style/css'

export { ElEmpty } from 'element-plus'
export { default as ErrorNotice } from '@/components/ErrorNotice.vue'
export { default as QueryBox } from '@/components/QueryBox.vue'
export { default as AddedInfoNotice } from './AddedInfoNotice.vue'
