import { defineAsyncComponent } from 'vue'

// The large slices' table is Element's virtual table (with its loading mask), about half of the
// page's code: loaded on its own, when a large slice is shown or with the page's late parts
// (TensorCard.vue), never before the page's first (small) tables.
let loading = null

/** Starts (once) loading TensorTable.vue; resolves to its module. */
export function loadTensorTable() {
  loading ||= import('./TensorTable.vue')
  return loading
}

/** TensorTable.vue, drawn once its code is in. */
export const TensorTable = defineAsyncComponent(loadTensorTable)
