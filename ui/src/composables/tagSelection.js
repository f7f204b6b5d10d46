import { computed } from 'vue'
import { filterTags, toggleVisible, visibleSelectionState } from '@/lib/tagQuery.js'

/**
 * The state behind a tag multi-select with "All" and a regular-expression filter. `props` holds
 * `tags` (all of them) and `modelValue` (the selected ones); `pattern` is a ref of the filter;
 * `emit` sends `update:modelValue`. "All" and each box act on the tags the filter shows only.
 *
 * Returns `{filtered, selectedSet, allState, setAll, setOne}`: `filtered` is filterTags' answer
 * (`{tags, invalid}`), `allState` is 'all', 'some' or 'none' over the shown tags.
 */
export function useTagSelection(props, emit, pattern) {
  const filtered = computed(() => filterTags(props.tags, pattern.value))
  const selectedSet = computed(() => new Set(props.modelValue))
  const allState = computed(() => visibleSelectionState(props.modelValue, filtered.value.tags))
  const select = (tags, checked) =>
    emit('update:modelValue', toggleVisible(props.modelValue, tags, checked, props.tags))
  return {
    filtered,
    selectedSet,
    allState,
    setAll: (checked) => select(filtered.value.tags, checked),
    setOne: (tag, checked) => select([tag], checked),
  }
}
