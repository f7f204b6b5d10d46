// Element's text input, for controls that hold an inert stand-in (InputStandIn) in its place until
// it is in (RunPicker's filter): a page's first drawing does not wait for it and the lodash
// helpers it brings (some ten files).
import 'element-plus/es/components/input/style/css'

export { ElInput } from 'element-plus'
