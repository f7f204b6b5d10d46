import { describe, expect, it } from 'vitest'
import { buildScalarSeries, describeNonFinite, finiteValue, seriesSignature } from '@/lib/scalarSeries.js'

describe('scalar series builder', () => {
  it('keeps finite values and turns NaN/Infinity (strings, numbers, null) into gaps', () => {
    const metadatas = [
      { step: 1, wall_time: 10, value: 0.5 },
      { step: 2, wall_time: 11, value: 'NaN' },
      { step: 3, wall_time: 12, value: 'Infinity' },
      { step: 4, wall_time: 13, value: '-Infinity' },
      { step: 5, wall_time: 14, value: null },
      { step: 6, wall_time: 15, value: Number.NaN },
      { step: 7, wall_time: 16, value: Number.POSITIVE_INFINITY },
      { step: 8, wall_time: 17, value: 2 },
      { step: 9, wall_time: 18, value: '1.25' },
    ]
    const { data, invalid, finiteCount } = buildScalarSeries(metadatas)
    expect(data.map(([step, value]) => [step, value])).toEqual([
      [1, 0.5],
      [2, null],
      [3, null],
      [4, null],
      [5, null],
      [6, null],
      [7, null],
      [8, 2],
      [9, 1.25],
    ])
    expect(invalid).toEqual([
      { step: 2, kind: 'NaN' },
      { step: 3, kind: 'Infinity' },
      { step: 4, kind: '-Infinity' },
      { step: 5, kind: 'null' },
      { step: 6, kind: 'NaN' },
      { step: 7, kind: 'Infinity' },
    ])
    expect(finiteCount).toBe(3)
    expect(data[0]).toEqual([1, 0.5, 10, null])
    expect(data[1]).toEqual([2, null, 11, 'NaN'])
    expect(data[4]).toEqual([5, null, 14, 'null'])
  })

  it('sorts by step and ignores points without a numeric step', () => {
    const { data } = buildScalarSeries([
      { step: 3, wall_time: 3, value: 3 },
      { step: 1, wall_time: 1, value: 1 },
      { step: 'x', value: 9 },
    ])
    expect(data.map((point) => point[0])).toEqual([1, 3])
  })

  it('handles empty and missing input', () => {
    expect(buildScalarSeries([])).toEqual({ data: [], invalid: [], finiteCount: 0 })
    expect(buildScalarSeries(undefined)).toEqual({ data: [], invalid: [], finiteCount: 0 })
  })

  it('does not take null, booleans or blank strings for zero', () => {
    for (const raw of [null, undefined, false, true, '', '  ', 'abc', {}]) expect(finiteValue(raw)).toBeNull()
    expect(finiteValue(0)).toBe(0)
    expect(finiteValue('-3e2')).toBe(-300)
    expect(describeNonFinite('inf')).toBe('Infinity')
    expect(describeNonFinite('-INF')).toBe('-Infinity')
    expect(describeNonFinite('nan')).toBe('NaN')
  })

  it('changes its signature when points are appended or the last value changes', () => {
    const a = [{ step: 1, wall_time: 1, value: 1 }]
    const b = [...a, { step: 2, wall_time: 2, value: 2 }]
    expect(seriesSignature(a)).toBe(seriesSignature([{ ...a[0] }]))
    expect(seriesSignature(a)).not.toBe(seriesSignature(b))
    expect(seriesSignature([])).toBe('empty')
  })
})
