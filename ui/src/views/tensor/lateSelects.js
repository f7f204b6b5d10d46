// Element's select for the tensor cards' number format (type, decimal places): loaded with the
// per-tag page's late parts, after the first table is drawn (see TensorCard.vue).
import 'element-plus/es/components/select/style/css'
import 'element-plus/es/components/option/style/css'

export { ElOption, ElSelect } from 'element-plus'
