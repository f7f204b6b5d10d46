// What the graph page (GraphPage) shows only once its first drawing is on screen, or in rare
// states: Element's buttons of the drawing, the file select, the switch, the search box, the scope
// tree's tree and the empty state. One lazy module, so the first drawing waits for none of it;
// stand-ins of the same look hold their place meanwhile.
import 'element-plus/es/components/autocomplete/style/css'
import 'element-plus/es/components/button/style/css'
import 'element-plus/es/components/empty/style/css'
import 'element-plus/es/components/option/style/css'
import 'element-plus/es/components/select/style/css'
import 'element-plus/es/components/switch/style/css'
import 'element-plus/es/components/tree/style/css'

export { ElAutocomplete, ElButton, ElEmpty, ElOption, ElSelect, ElSwitch, ElTree } from 'element-plus'
