// Element Plus components are imported on demand where templates use them (unplugin-vue-components
// in vite.config.js). What is left to load once for the whole app: the dark theme's variables.
import 'element-plus/theme-chalk/dark/css-vars.css'

export default {
  install() {},
}
