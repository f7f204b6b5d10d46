import { describe, expect, it } from 'vitest'
import { columnPoints } from '@/lib/scalarColumns.js'

describe('columnPoints', () => {
  it('gives the points of the original answer, non-finite ones named', () => {
    const series = { steps: [1, 2, 3], values: [0.5, null, 0.25], wall_times: [10, 11, 12], non_finite: { 1: 'NaN' } }
    expect(columnPoints(series)).toEqual([
      { wall_time: 10, step: 1, value: 0.5 },
      { wall_time: 11, step: 2, value: null, non_finite: 'NaN' },
      { wall_time: 12, step: 3, value: 0.25 },
    ])
  })

  it('reads a malformed series as no points', () => {
    expect(columnPoints({})).toEqual([])
    expect(columnPoints(null)).toEqual([])
  })
})
