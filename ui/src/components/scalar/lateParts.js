// What the scalar charts' pages show only once their first chart is drawn, on a click, or in
// rare states: the Element Plus parts of the controls (ScalarTagSelector, ScalarAxisControls),
// the pager, the threshold dialog, a chart's download menu, the notices and empty states.
// One lazy module, so none of it (some twenty files with Element's lodash helpers) is waited for
// by the first chart, and the Element chunks of the other pages stay as few as they were.
import 'element-plus/es/components/alert/style/css'
import 'element-plus/es/components/empty/style/css'
import 'element-plus/es/components/input/style/css'
import 'element-plus/es/components/input-number/style/css'
import 'element-plus/es/components/option/style/css'
// The look of the axis choice's native radio buttons (ScalarAxisControls): the app has one
// stylesheet, so this is in it from the first load; imported there, it cost an empty file.
import 'element-plus/es/components/radio/style/css'
import 'element-plus/es/components/radio-button/style/css'
import 'element-plus/es/components/radio-group/style/css'
import 'element-plus/es/components/select/style/css'
import 'element-plus/es/components/slider/style/css'
import 'element-plus/es/components/tooltip/style/css'

export { ElAlert, ElEmpty, ElInput, ElInputNumber, ElOption, ElSelect, ElSlider, ElTooltip } from 'element-plus'
export { default as PagerBar } from '@/components/PagerBar.vue'
export { default as TrainJobNotice } from '@/components/TrainJobNotice.vue'
export { default as ThresholdDialog } from './ThresholdDialog.vue'
export { default as ScalarDownloadMenu } from './ScalarDownloadMenu.vue'
