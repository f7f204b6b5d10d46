import { describe, expect, it } from 'vitest'
import {
  decodeTagList,
  encodeTagList,
  filterTags,
  selectedFromQuery,
  tagsFromQuery,
  tagsToQuery,
  toggleVisible,
  visibleSelectionState,
} from '@/lib/tagQuery.js'

const TAGS = ['accuracy/scalar', 'custom_loss/scalar', 'fc3_out_mean/scalar', 'loss_op/scalar']

describe('tag list encoding', () => {
  it('joins with commas and round-trips tags containing commas and backslashes', () => {
    expect(encodeTagList(['loss/scalar', 'acc/scalar'])).toBe('loss/scalar,acc/scalar')
    const odd = ['a,b/scalar', 'c\\d/scalar', ',', '', 'plain']
    expect(decodeTagList(encodeTagList(odd))).toEqual(odd)
    expect(decodeTagList('')).toEqual([])
    expect(decodeTagList('one')).toEqual(['one'])
  })

  it('reads the route query: absent = all, empty = none, repeated keys are merged', () => {
    expect(tagsFromQuery(undefined)).toBeNull()
    expect(tagsFromQuery(null)).toBeNull()
    expect(tagsFromQuery('')).toEqual([])
    expect(tagsFromQuery('a,b')).toEqual(['a', 'b'])
    expect(tagsFromQuery(['a,b', 'c', null])).toEqual(['a', 'b', 'c'])
  })
})

describe('selection <-> query', () => {
  it('selects every tag by default, in the job order', () => {
    expect(selectedFromQuery(undefined, TAGS)).toEqual(TAGS)
  })

  it('keeps only existing tags, in the job order', () => {
    expect(selectedFromQuery('loss_op/scalar,accuracy/scalar,nope/scalar', TAGS)).toEqual([
      'accuracy/scalar',
      'loss_op/scalar',
    ])
    expect(selectedFromQuery('', TAGS)).toEqual([])
  })

  it('omits the parameter when everything is selected, so new tags of a live job show up', () => {
    expect(tagsToQuery([...TAGS].reverse(), TAGS)).toBeUndefined()
    expect(tagsToQuery(['loss_op/scalar', 'accuracy/scalar'], TAGS)).toBe('accuracy/scalar,loss_op/scalar')
    expect(tagsToQuery([], TAGS)).toBe('')
  })

  it('round-trips any subset', () => {
    const subset = ['custom_loss/scalar', 'fc3_out_mean/scalar']
    expect(selectedFromQuery(tagsToQuery(subset, TAGS), TAGS)).toEqual(subset)
  })
})

describe('tag filter', () => {
  it('matches a case-insensitive regular expression', () => {
    expect(filterTags(TAGS, '^(acc|LOSS)').tags).toEqual(['accuracy/scalar', 'loss_op/scalar'])
    expect(filterTags(TAGS, 'loss').tags).toEqual(['custom_loss/scalar', 'loss_op/scalar'])
    expect(filterTags(TAGS, '  ').tags).toEqual(TAGS)
  })

  it('falls back to a substring match for an invalid expression', () => {
    const result = filterTags(['a(b/scalar', 'x/scalar'], 'a(')
    expect(result).toEqual({ tags: ['a(b/scalar'], invalid: true })
  })

  it('"All" (de)selects only the visible tags and reports its state', () => {
    const visible = ['custom_loss/scalar', 'loss_op/scalar']
    expect(toggleVisible(['accuracy/scalar'], visible, true, TAGS)).toEqual([
      'accuracy/scalar',
      'custom_loss/scalar',
      'loss_op/scalar',
    ])
    expect(toggleVisible(TAGS, visible, false, TAGS)).toEqual(['accuracy/scalar', 'fc3_out_mean/scalar'])
    expect(visibleSelectionState(['accuracy/scalar'], visible)).toBe('none')
    expect(visibleSelectionState(['loss_op/scalar'], visible)).toBe('some')
    expect(visibleSelectionState(TAGS, visible)).toBe('all')
  })
})
