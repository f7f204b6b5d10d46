// What the per-tag pages (PerTagPage) show only once their first card is drawn, or in rare
// states: the Element Plus parts of the controls (the tag filter, the image
// page's brightness and contrast, the cards' step sliders), the pager, the notices and empty
// states. One lazy module, so the first chart or image waits for none of it. See lateControls.js.
import 'element-plus/es/components/alert/style/css'
import 'element-plus/es/components/button/style/css'
// The look of the tag selection's native check boxes (NativeCheckbox): the app has one stylesheet,
// so this is in it from the first load; imported there, it cost an empty file.
import 'element-plus/es/components/checkbox/style/css'
import 'element-plus/es/components/empty/style/css'
import 'element-plus/es/components/input/style/css'
import 'element-plus/es/components/slider/style/css'

export { ElButton, ElEmpty, ElInput, ElSlider } from 'element-plus'
export { default as ErrorNotice } from '@/components/ErrorNotice.vue'
export { default as PagerBar } from '@/components/PagerBar.vue'
export { default as TrainJobNotice } from '@/components/TrainJobNotice.vue'
