import { computed, ref, unref, watch } from 'vue'

/**
 * Paging of a page's selected tags: `page` (1-based, pulled back when the selection shrinks),
 * `pageCount` and the `pagedTags` shown. `pageSize` is a number or a ref.
 */
export function useTagPaging(selectedTags, pageSize) {
  const page = ref(1)
  const pageCount = computed(() => Math.max(1, Math.ceil(selectedTags.value.length / unref(pageSize))))
  const pagedTags = computed(() => {
    const size = unref(pageSize)
    const current = Math.min(page.value, pageCount.value)
    return selectedTags.value.slice((current - 1) * size, current * size)
  })
  watch(pageCount, (count) => {
    if (page.value > count) page.value = count
  })
  return { page, pageCount, pagedTags }
}
