// What the data map page (DataMapPage) shows only once its pipeline is drawn, or in rare states:
// Element's buttons of the toolbar, the node select and the empty state. One lazy module, so the
// first drawing waits for none of it; stand-ins of the same look hold their place meanwhile.
import 'element-plus/es/components/button/style/css'
import 'element-plus/es/components/empty/style/css'
import 'element-plus/es/components/option/style/css'
import 'element-plus/es/components/select/style/css'

export { ElButton, ElEmpty, ElOption, ElSelect } from 'element-plus'
