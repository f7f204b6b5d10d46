import { describe, expect, it } from 'vitest'
import { defaultDims, dimsFit, parseDims, sliceIndices, TABLE_VALUE_LIMIT } from '@/lib/tensorDims.js'

describe('sliceIndices (Python slice semantics)', () => {
  it('selects like Python for positive, negative, open and stepped slices', () => {
    expect(sliceIndices(null, null, null, 5)).toEqual([0, 1, 2, 3, 4])
    expect(sliceIndices(2, 5, null, 8)).toEqual([2, 3, 4])
    expect(sliceIndices(-3, null, null, 8)).toEqual([5, 6, 7])
    expect(sliceIndices(null, -6, null, 8)).toEqual([0, 1])
    expect(sliceIndices(1, null, 3, 8)).toEqual([1, 4, 7])
    expect(sliceIndices(null, null, -1, 4)).toEqual([3, 2, 1, 0])
    expect(sliceIndices(0, 1000, null, 8)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(sliceIndices(6, 2, null, 8)).toEqual([])
  })
})

describe('parseDims', () => {
  const shape = [4, 8, 8]

  it('accepts indices and slices, one per dimension, and builds the dims query', () => {
    const parsed = parseDims('0, :, 2:5', shape)
    expect(parsed.ok).toBe(true)
    expect(parsed.query).toBe('[0,:,2:5]')
    expect(parsed.axes).toEqual([
      [0, 1, 2, 3, 4, 5, 6, 7],
      [2, 3, 4],
    ])
    expect(parsed.count).toBe(24)
  })

  it('accepts the bracketed form and negative indices', () => {
    const parsed = parseDims('[-1,:,-2]', shape)
    expect(parsed.ok).toBe(true)
    expect(parsed.query).toBe('[-1,:,-2]')
    expect(parsed.items[0].index).toBe(3)
    expect(parsed.axes).toEqual([[0, 1, 2, 3, 4, 5, 6, 7]])
  })

  it('refuses a count that differs from the rank', () => {
    expect(parseDims('0, :', shape).error).toEqual({ key: 'tensor.dims.wrongCount', params: { count: 2, rank: 3 } })
    expect(parseDims('', shape).error.key).toBe('tensor.dims.wrongCount')
  })

  it('refuses more than two slices', () => {
    expect(parseDims(':, :, :', shape).error.key).toBe('tensor.dims.tooManySlices')
  })

  it('refuses out-of-range indices, bad items, empty items and zero steps', () => {
    expect(parseDims('4, :, :', shape).error).toEqual({
      key: 'tensor.dims.indexOutOfRange',
      params: { position: 1, value: 4, size: 4 },
    })
    expect(parseDims('-5, :, :', shape).error.key).toBe('tensor.dims.indexOutOfRange')
    expect(parseDims('x, :, :', shape).error).toEqual({
      key: 'tensor.dims.badItem',
      params: { position: 1, item: 'x' },
    })
    expect(parseDims('0.5, :, :', shape).error.key).toBe('tensor.dims.badItem')
    expect(parseDims('0, , :', shape).error.key).toBe('tensor.dims.emptyItem')
    expect(parseDims('0, ::0, :', shape).error.key).toBe('tensor.dims.zeroStep')
    expect(parseDims('0, 5:2, :', shape).error.key).toBe('tensor.dims.emptySlice')
    expect(parseDims('0, 1:2:3:4, :', shape).error.key).toBe('tensor.dims.badItem')
  })

  it('refuses a selection of more values than the server sends', () => {
    const parsed = parseDims(':, :', [1000, 1000])
    expect(parsed.error.key).toBe('tensor.dims.tooManyValues')
    expect(parsed.error.params).toEqual({ count: 1000000, limit: TABLE_VALUE_LIMIT })
  })

  it('handles 1-D and 0-D tensors', () => {
    expect(parseDims(':', [6]).axes).toEqual([[0, 1, 2, 3, 4, 5]])
    const scalar = parseDims('', [])
    expect(scalar.ok).toBe(true)
    expect(scalar.query).toBe('[]')
    expect(scalar.count).toBe(1)
  })
})

describe('defaultDims', () => {
  it('indexes leading dimensions and slices the last two', () => {
    expect(defaultDims([4, 8, 8])).toBe('0, :, :')
    expect(defaultDims([2, 3])).toBe(':, :')
    expect(defaultDims([2, 3, 4, 5])).toBe('0, 0, :, :')
    expect(defaultDims([7])).toBe(':')
    expect(defaultDims([])).toBe('')
  })

  it('keeps the default within the column and value limits', () => {
    expect(defaultDims([5000])).toBe('0:1000')
    expect(defaultDims([400, 2000])).toBe('0:100, 0:1000')
    for (const shape of [[400, 2000], [3, 100000, 3], [5000]]) {
      const parsed = parseDims(defaultDims(shape), shape)
      expect(parsed.ok).toBe(true)
      expect(parsed.count).toBeLessThanOrEqual(TABLE_VALUE_LIMIT)
    }
  })

  it('is valid for its own shape', () => {
    expect(dimsFit(defaultDims([2, 1, 8, 5]), [2, 1, 8, 5])).toBe(true)
    expect(dimsFit('0, :, :', [2, 3])).toBe(false)
  })
})
