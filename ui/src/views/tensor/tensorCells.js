import { computed } from 'vue'
import { cellBackground, cellWidth, formatCell, maxAbs } from '@/lib/tensorTable.js'

/**
 * How both tensor tables (PlainTensorTable.vue, TensorTable.vue) draw a value, for a table's props
 * (TENSOR_TABLE_PROPS): `columnWidth`, the value columns' width; `text(value)`, formatted by the
 * data type; `shade(value)`, the cell's background by magnitude against the slice's largest.
 */
export function useTensorCells(props) {
  const scale = computed(() => maxAbs(props.table.rows))
  const columnWidth = computed(() => cellWidth(props))
  return {
    columnWidth,
    text: (value) => formatCell(value, props),
    shade: (value) => cellBackground(value, scale.value),
  }
}
