// Element's pager, with the select of page sizes, the page input and their tooltips and
// scrollbar: about 40 KB gzip that PagerBar loads beside the page, so the rows above it do not
// wait for it (PagerStandIn holds its place meanwhile).
import 'element-plus/es/components/pagination/style/css'

export { ElPagination } from 'element-plus'
