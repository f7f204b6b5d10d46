import { describe, expect, it } from 'vitest'
import { PAGER_COUNT, pagerItems } from '@/components/pager/pagerNumbers.js'

// The pager's stand-in lists the pages Element's pager lists (tests/e2e/test_pager_stand_in.py
// compares both in the browser); these are the rules, case by case.
describe('pagerItems', () => {
  it('lists every page up to the pager count', () => {
    expect(pagerItems(1, 1)).toEqual([1])
    expect(pagerItems(3, PAGER_COUNT)).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it('folds the pages after the first ones while near the start', () => {
    expect(pagerItems(1, 10)).toEqual([1, 2, 3, 4, 5, 6, 'more', 10])
    expect(pagerItems(4, 10)).toEqual([1, 2, 3, 4, 5, 6, 'more', 10])
  })

  it('folds both sides in the middle', () => {
    expect(pagerItems(5, 10)).toEqual([1, 'more', 3, 4, 5, 6, 7, 'more', 10])
    expect(pagerItems(6, 10)).toEqual([1, 'more', 4, 5, 6, 7, 8, 'more', 10])
  })

  it('folds the pages before the last ones while near the end', () => {
    expect(pagerItems(7, 10)).toEqual([1, 'more', 5, 6, 7, 8, 9, 10])
    expect(pagerItems(10, 10)).toEqual([1, 'more', 5, 6, 7, 8, 9, 10])
  })
})
