import { defineAsyncComponent } from 'vue'

// The tensor table is Element's virtual table (with its loading mask), about half of the page's
// code: loaded on its own, from the page's setup on, it comes while the page asks for its data
// instead of before the page can start asking.
let loading = null

/** Starts (once) loading TensorTable.vue; resolves to its module. */
export function loadTensorTable() {
  loading ||= import('./TensorTable.vue')
  return loading
}

/** TensorTable.vue, drawn once its code is in. */
export const TensorTable = defineAsyncComponent(loadTensorTable)
