import { describe, expect, it } from 'vitest'
import {
  clampPage,
  DEFAULT_PAGE_SIZE,
  loadPaging,
  normalizePageSize,
  pageCount,
  pageRequest,
  rowNumber,
  savePaging,
} from '@/lib/paging.js'
import { memoryStorage } from './storage.js'

describe('train-job paging', () => {
  it('sends the page index (not an item offset) and the page size', () => {
    expect(pageRequest(1, 20)).toEqual({ offset: 0, limit: 20 })
    expect(pageRequest(2, 20)).toEqual({ offset: 1, limit: 20 })
    expect(pageRequest(3, 50)).toEqual({ offset: 2, limit: 50 })
    expect(pageRequest(0, 10)).toEqual({ offset: 0, limit: 10 })
    expect(pageRequest('x', 10)).toEqual({ offset: 0, limit: 10 })
  })

  it('numbers rows across pages', () => {
    expect(rowNumber(1, 20, 0)).toBe(1)
    expect(rowNumber(2, 20, 0)).toBe(21)
    expect(rowNumber(3, 10, 4)).toBe(25)
  })

  it('only allows the sizes 10/20/50, default 20', () => {
    expect(DEFAULT_PAGE_SIZE).toBe(20)
    expect(normalizePageSize(50)).toBe(50)
    expect(normalizePageSize('10')).toBe(10)
    expect(normalizePageSize(30)).toBe(20)
    expect(normalizePageSize(undefined)).toBe(20)
  })

  it('counts pages and keeps the page in range', () => {
    expect(pageCount(0, 20)).toBe(1)
    expect(pageCount(20, 20)).toBe(1)
    expect(pageCount(21, 20)).toBe(2)
    expect(pageCount(101, 50)).toBe(3)
    expect(clampPage(5, 21, 20)).toBe(2)
    expect(clampPage(0, 21, 20)).toBe(1)
    expect(clampPage(2, 0, 20)).toBe(1)
    expect(clampPage(NaN, 100, 10)).toBe(1)
  })

  it('remembers page and size in (session) storage', () => {
    const storage = memoryStorage()
    expect(loadPaging(storage)).toEqual({ page: 1, pageSize: 20 })
    savePaging(storage, { page: 3, pageSize: 50 })
    expect(loadPaging(storage)).toEqual({ page: 3, pageSize: 50 })
    storage.setItem('mindinsight.summaryList.paging', '{broken')
    expect(loadPaging(storage)).toEqual({ page: 1, pageSize: 20 })
    storage.setItem('mindinsight.summaryList.paging', JSON.stringify({ page: -4, pageSize: 7 }))
    expect(loadPaging(storage)).toEqual({ page: 1, pageSize: 20 })
    expect(loadPaging(null)).toEqual({ page: 1, pageSize: 20 })
  })
})
