// What a lineage page (LineageWorkbench) builds only once its parallel chart is drawn: Element's
// column select and buttons, the table with its remark and tag cells, and the pager. One lazy
// module, so the chart waits for none of it; stand-ins of the same look hold the select's and the
// buttons' places meanwhile.
import 'element-plus/es/components/button/style/css'
import 'element-plus/es/components/option/style/css'
import 'element-plus/es/components/select/style/css'
import 'element-plus/es/components/table/style/css'
import 'element-plus/es/components/table-column/style/css'

export { ElButton, ElOption, ElSelect, ElTable, ElTableColumn } from 'element-plus'
export { default as PagerBar } from '@/components/PagerBar.vue'
export { default as RemarkCell } from './RemarkCell.vue'
export { default as TagCell } from './TagCell.vue'
