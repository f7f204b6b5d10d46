// Element Plus, imported per component (JS tree-shaken, CSS per component) instead of the full kit.
import {
  ElAlert,
  ElButton,
  ElCheckbox,
  ElConfigProvider,
  ElEmpty,
  ElInput,
  ElInputNumber,
  ElOption,
  ElPagination,
  ElPopover,
  ElSelect,
  ElSwitch,
  vLoading,
} from 'element-plus'
import 'element-plus/es/components/alert/style/css'
import 'element-plus/es/components/button/style/css'
import 'element-plus/es/components/checkbox/style/css'
import 'element-plus/es/components/config-provider/style/css'
import 'element-plus/es/components/empty/style/css'
import 'element-plus/es/components/input/style/css'
import 'element-plus/es/components/input-number/style/css'
import 'element-plus/es/components/option/style/css'
import 'element-plus/es/components/pagination/style/css'
import 'element-plus/es/components/popover/style/css'
import 'element-plus/es/components/select/style/css'
import 'element-plus/es/components/switch/style/css'
import 'element-plus/es/components/loading/style/css'
import 'element-plus/theme-chalk/dark/css-vars.css'

const components = [
  ElAlert,
  ElButton,
  ElCheckbox,
  ElConfigProvider,
  ElEmpty,
  ElInput,
  ElInputNumber,
  ElOption,
  ElPagination,
  ElPopover,
  ElSelect,
  ElSwitch,
]

export default {
  install(app) {
    for (const component of components) app.component(component.name, component)
    app.directive('loading', vLoading)
  },
}
