import { describe, expect, it } from 'vitest'
import { cellText, isSummaryColumn, pagesOf, queryList, summaryColumns, viewFromQuery } from '@/lib/runsTable.js'
import { isQueryError, queryErrorPlace } from '@/lib/queryError.js'

describe('runs table view state', () => {
  it('reads the view from the route query with defaults', () => {
    expect(viewFromQuery({})).toEqual({ query: '', sort: 'update_time', order: 'desc', columns: null })
    expect(viewFromQuery({ q: 'lr < 1', sort: 'loss.last', order: 'asc', col: ['lr', 'loss.last'] })).toEqual({
      query: 'lr < 1',
      sort: 'loss.last',
      order: 'asc',
      columns: ['lr', 'loss.last'],
    })
    expect(viewFromQuery({ order: 'sideways', col: '' }).order).toBe('desc')
    expect(queryList('')).toEqual([])
    expect(queryList('a')).toEqual(['a'])
  })

  it('names summary columns and tells them from hyper-parameters', () => {
    expect(summaryColumns(['loss'])).toEqual(['loss.last', 'loss.min', 'loss.max'])
    expect(isSummaryColumn('loss.last', ['learning_rate'])).toBe(true)
    expect(isSummaryColumn('user_defined.x.max', ['user_defined.x.max'])).toBe(false)
  })

  it('formats cells and pages', () => {
    expect(cellText(null)).toBe('–')
    expect(cellText(0.123456789)).toBe('0.123457')
    expect(cellText(32)).toBe('32')
    expect(cellText({ a: 1 })).toBe('{"a":1}')
    expect(pagesOf(95, 210, 100)).toEqual([0, 1, 2])
  })
})

describe('query errors', () => {
  it('finds the place the server names', () => {
    const message = 'Query syntax error. Detail: line 2, column 3: unexpected character'
    expect(queryErrorPlace(message, 'ab\ncd!')).toEqual({ line: 2, column: 3, offset: 5 })
    expect(queryErrorPlace('no place', 'x')).toBeNull()
    expect(isQueryError({ code: '50540201' })).toBe(true)
    expect(isQueryError({ code: '50540002' })).toBe(false)
  })
})
