import { describe, expect, it } from 'vitest'
import { namesQueries } from '@/api/datavisual.js'

describe('namesQueries', () => {
  it('matches exactly the names, their regular-expression and string characters escaped', () => {
    expect(namesQueries(['./a.b', './c"d', './a.b'])).toEqual([
      { query: 'name ~ "^(?:\\\\./a\\\\.b|\\\\./c\\"d)$"', size: 2 },
    ])
  })

  it('splits many names over queries whose patterns the server takes', () => {
    const names = Array.from(
      { length: 100 },
      (_, index) => `./cfg${index % 5}_seed${String(index).padStart(2, '0')}_long_name`,
    )
    const queries = namesQueries(names)
    expect(queries.length).toBeGreaterThan(1)
    expect(queries.reduce((sum, item) => sum + item.size, 0)).toBe(100)
    for (const { query } of queries) expect(query.length - 'name ~ ""'.length).toBeLessThanOrEqual(1000)
  })
})
