import { describe, expect, it } from 'vitest'
import {
  PLAIN_TABLE_MAX_CELLS,
  cellBackground,
  cellNumber,
  cellShade,
  cellWidth,
  formatCell,
  isIntegerType,
  isPlainTable,
  maxAbs,
  shapeTable,
  summarizeStatistics,
  tableHeight,
} from '@/lib/tensorTable.js'
import { tensorHistograms } from '@/lib/tensorHistogram.js'
import { pickStepIndex, sortBySteps } from '@/lib/stepSelection.js'

describe('shapeTable', () => {
  it('labels rows and columns with the tensor indices of a 2-D slice', () => {
    const table = shapeTable(
      [
        [1, 2],
        [3, 4],
        [5, 6],
      ],
      [
        [2, 3, 4],
        [5, 7],
      ],
    )
    expect(table.columns).toEqual([5, 7])
    expect(table.rows).toEqual([
      { index: 2, cells: [1, 2] },
      { index: 3, cells: [3, 4] },
      { index: 4, cells: [5, 6] },
    ])
  })

  it('shows a 1-D slice as one row and a single value as one cell', () => {
    expect(shapeTable([7, 8, 9], [[1, 2, 3]])).toEqual({ columns: [1, 2, 3], rows: [{ index: 0, cells: [7, 8, 9] }] })
    expect(shapeTable(42, [])).toEqual({ columns: [0], rows: [{ index: 0, cells: [42] }] })
  })

  it('decodes the NaN/Infinity strings of tensors that hold them', () => {
    const table = shapeTable([['NAN', 'INF', '-INF', 1.5]], [[0], [0, 1, 2, 3]])
    expect(table.rows[0].cells.slice(1)).toEqual([Infinity, -Infinity, 1.5])
    expect(Number.isNaN(table.rows[0].cells[0])).toBe(true)
    expect(cellNumber('nan')).toBeNaN()
  })
})

describe('formatCell', () => {
  it('shows integer tensors as integers', () => {
    expect(isIntegerType('DT_INT32')).toBe(true)
    expect(isIntegerType('DT_UINT8')).toBe(true)
    expect(isIntegerType('DT_FLOAT32')).toBe(false)
    expect(formatCell(300, { dataType: 'DT_INT32' })).toBe('300')
    expect(formatCell(-7, { dataType: 'DT_INT64', accuracy: 3 })).toBe('-7')
    expect(formatCell(0, { dataType: 'DT_INT32' })).toBe('0')
  })

  it('shows floats with the chosen decimals, fixed or scientific', () => {
    expect(formatCell(1.498431, { dataType: 'DT_FLOAT32' })).toBe('1.49843')
    expect(formatCell(1.498431, { dataType: 'DT_FLOAT32', accuracy: 2 })).toBe('1.50')
    expect(formatCell(-1234.5, { dataType: 'DT_FLOAT32', category: 'science', accuracy: 3 })).toBe('-1.235e+3')
  })

  it('names NaN and infinities and shows booleans', () => {
    expect(formatCell(NaN, { dataType: 'DT_FLOAT32' })).toBe('NaN')
    expect(formatCell(Infinity, { dataType: 'DT_FLOAT32' })).toBe('+Inf')
    expect(formatCell(-Infinity, { dataType: 'DT_FLOAT32' })).toBe('-Inf')
    expect(formatCell(true, { dataType: 'DT_BOOL' })).toBe('true')
    expect(formatCell(0, { dataType: 'DT_BOOL' })).toBe('false')
  })
})

describe('cell shading', () => {
  it('scales by the largest absolute finite value', () => {
    const rows = [{ cells: [1, -4, NaN, Infinity] }, { cells: [2, 0] }]
    expect(maxAbs(rows)).toBe(4)
    expect(cellShade(-4, 4)).toEqual({ sign: 'negative', alpha: 0.8 })
    expect(cellShade(2, 4)).toEqual({ sign: 'positive', alpha: 0.4 })
    expect(cellShade(0, 4).sign).toBe('none')
    expect(cellShade(NaN, 4).sign).toBe('none')
    expect(cellShade(3, 0).sign).toBe('none')
  })

  it('gives the shade as a background colour', () => {
    expect(cellBackground(2, 4)).toEqual({ background: 'rgba(0, 165, 167, 0.4)' })
    expect(cellBackground(-4, 4)).toEqual({ background: 'rgba(245, 147, 66, 0.8)' })
    expect(cellBackground(0, 4)).toBeNull()
  })
})

describe('table size', () => {
  const table = (rows, columns) => ({
    columns: Array.from({ length: columns }, (_, i) => i),
    rows: Array.from({ length: rows }, (_, index) => ({ index, cells: Array(columns).fill(0) })),
  })

  it('shows small slices as a plain table and large ones as the virtual grid', () => {
    expect(isPlainTable(table(8, 8))).toBe(true)
    expect(isPlainTable(table(40, PLAIN_TABLE_MAX_CELLS / 40))).toBe(true)
    expect(isPlainTable(table(40, PLAIN_TABLE_MAX_CELLS / 40 + 1))).toBe(false)
    expect(isPlainTable(table(100, 1000))).toBe(false)
  })

  it('fits a short slice and caps a long one', () => {
    expect(tableHeight(2)).toBe(74)
    expect(tableHeight(8)).toBe(218)
    expect(tableHeight(100)).toBe(240)
  })

  it('widens the value columns for more decimals and exponents', () => {
    expect(cellWidth({ accuracy: 0, category: 'value' })).toBe(72)
    expect(cellWidth({ accuracy: 5, category: 'value' })).toBe(80)
    expect(cellWidth({ accuracy: 5, category: 'science' })).toBe(112)
  })
})

describe('summarizeStatistics', () => {
  it('prefers the whole-tensor values', () => {
    const summary = summarizeStatistics({
      max: 2,
      min: -1,
      avg: 0.1,
      count: 40,
      nan_count: 0,
      overall_max: 3,
      overall_min: -2,
      overall_avg: 0.2,
      overall_count: 80,
      overall_nan_count: 1,
      overall_pos_inf_count: 2,
      overall_neg_inf_count: 0,
    })
    expect(summary).toEqual({
      kind: 'number',
      max: 3,
      min: -2,
      mean: 0.2,
      count: 80,
      nanCount: 1,
      posInfCount: 2,
      negInfCount: 0,
    })
  })

  it('counts true and false for bool tensors', () => {
    expect(summarizeStatistics({ overall_count: 6, overall_true_count: 4, overall_false_count: 2 })).toEqual({
      kind: 'bool',
      count: 6,
      trueCount: 4,
      falseCount: 2,
    })
    expect(summarizeStatistics(null)).toBeNull()
  })
})

describe('tensorHistograms', () => {
  it('reshapes the tensors answer into the histograms answer, by step', () => {
    const values = [
      { wall_time: 2, step: 20, value: { histogram_buckets: [[0, 1, 3]] } },
      { wall_time: 1, step: 10, value: { histogram_buckets: [[0, 1, 5]] } },
      { wall_time: 3, step: 30, value: { dims: [2] } },
    ]
    expect(tensorHistograms(values)).toEqual([
      { wall_time: 1, step: 10, buckets: [[0, 1, 5]] },
      { wall_time: 2, step: 20, buckets: [[0, 1, 3]] },
    ])
    expect(tensorHistograms(undefined)).toEqual([])
  })
})

describe('pickStepIndex', () => {
  const steps = [10, 20, 30, 50]

  it('follows the latest step unless one was chosen', () => {
    expect(pickStepIndex(steps, null, false)).toBe(3)
    expect(pickStepIndex(steps, 20, true)).toBe(3)
    expect(pickStepIndex([], 20, false)).toBe(-1)
  })

  it('keeps a chosen step, or moves to the nearest retained one', () => {
    expect(pickStepIndex(steps, 20, false)).toBe(1)
    expect(pickStepIndex(steps, 29, false)).toBe(2)
    expect(pickStepIndex(steps, 41, false)).toBe(3)
  })

  it('sorts entries by step', () => {
    expect(sortBySteps([{ step: 3 }, { step: 1 }]).map((entry) => entry.step)).toEqual([1, 3])
  })
})
