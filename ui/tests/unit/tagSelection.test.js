import { reactive, ref } from 'vue'
import { describe, expect, it } from 'vitest'
import { useTagSelection } from '@/composables/tagSelection.js'

/** A tag multi-select over `tags` with `selected` chosen, its emits logged. */
function selection(tags, selected, filter = '') {
  const props = reactive({ tags, modelValue: selected })
  const emitted = []
  const pattern = ref(filter)
  const state = useTagSelection(props, (event, value) => emitted.push([event, value]), pattern)
  return { props, emitted, pattern, state }
}

describe('useTagSelection', () => {
  it('states "All" over the tags the filter shows', () => {
    const { state, pattern } = selection(['loss', 'lr', 'acc'], ['loss'], '^l')
    expect(state.filtered.value.tags).toEqual(['loss', 'lr'])
    expect(state.allState.value).toBe('some')
    expect(state.selectedSet.value.has('loss')).toBe(true)
    pattern.value = 'loss'
    expect(state.allState.value).toBe('all')
  })

  it('"All" and one box change only the shown tags, in the job order', () => {
    const { state, emitted } = selection(['loss', 'lr', 'acc'], ['acc'], '^l')
    state.setAll(true)
    state.setOne('lr', false)
    expect(emitted).toEqual([
      ['update:modelValue', ['loss', 'lr', 'acc']],
      ['update:modelValue', ['acc']],
    ])
  })

  it('flags a filter that is no regular expression', () => {
    const { state } = selection(['loss'], [], '(')
    expect(state.filtered.value.invalid).toBe(true)
  })
})
