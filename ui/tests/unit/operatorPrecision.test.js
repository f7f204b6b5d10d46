import { describe, expect, it } from 'vitest'
import { attrText, csvFileName, edgeRows, filterRows, operatorRows, operatorsCsv } from '@/lib/operatorPrecision.js'

const flag = (value) => ({ precision_flag: `dtype: DT_STRING\nstr_val: "${value}"\n` })
const NODES = [
  {
    name: 'Default/net/Conv2D-op1',
    type: 'Conv2D',
    attr: {},
    input: {},
    output: { 'Default/net/Cast-op2': { shape: [[4]], data_type: 'DT_TENSOR[DT_FLOAT32]' } },
  },
  { name: 'Default/net/Cast-op2', type: 'Cast', attr: flag('reduce'), input: {}, output: {} },
  { name: 'Default/net/MatMul-op3', type: 'MatMul', attr: {}, input: {}, output: {} },
  { name: 'Default/net/Cast-op4', type: 'Cast', attr: flag('raise'), input: {}, output: {} },
  { name: 'Default/head/Cast-op5', type: 'Cast', attr: flag('reduce'), input: {}, output: {} },
]

describe('attrText', () => {
  it('reads the string of a printed attribute, or keeps the text', () => {
    expect(attrText(flag('reduce').precision_flag)).toBe('reduce')
    expect(attrText('dtype: DT_STRING\nstr_val: "a \\"b\\""\n')).toBe('a \\"b\\"')
    expect(attrText('plain')).toBe('plain')
    expect(attrText(undefined)).toBe('')
  })
})

describe('operatorRows', () => {
  const rows = operatorRows(NODES)

  it('lists reduced operators first, then other flagged ones, then the rest, each in graph order', () => {
    expect(rows.map((row) => row.id)).toEqual([2, 5, 4, 1, 3])
    expect(rows.map((row) => row.reduced)).toEqual([true, true, false, null, null])
    expect(rows[0]).toMatchObject({
      opName: 'Cast-op2',
      name: 'Default/net/Cast-op2',
      type: 'Cast',
      precisionFlag: 'reduce',
    })
  })

  it('keeps the edges of an operator', () => {
    expect(rows[3].outputs).toEqual([
      { name: 'Default/net/Cast-op2', shape: '[[4]]', dataType: 'DT_TENSOR[DT_FLOAT32]' },
    ])
    expect(edgeRows(null)).toEqual([])
  })

  it('takes a missing list as empty', () => {
    expect(operatorRows(undefined)).toEqual([])
  })
})

describe('filterRows', () => {
  const rows = operatorRows(NODES)

  it('matches the full name or the type, ignoring case', () => {
    expect(filterRows(rows, 'HEAD').map((row) => row.id)).toEqual([5])
    expect(filterRows(rows, 'matmul').map((row) => row.id)).toEqual([3])
    expect(filterRows(rows, ' cast ').length).toBe(3)
    expect(filterRows(rows, '').length).toBe(5)
  })

  it('keeps only flagged operators on request', () => {
    expect(filterRows(rows, '', { flaggedOnly: true }).map((row) => row.id)).toEqual([2, 5, 4])
    expect(filterRows(rows, 'net', { flaggedOnly: true }).map((row) => row.id)).toEqual([2, 4])
  })
})

describe('CSV', () => {
  it('writes a header and one quoted-when-needed line per row', () => {
    const rows = operatorRows(NODES).slice(2, 4)
    const csv = operatorsCsv(rows, ['ID', 'Name, short', 'Full', 'Type', 'Flag', 'Reduced', 'In', 'Out'], ['Y', 'N'])
    expect(csv.split('\r\n')).toEqual([
      'ID,"Name, short",Full,Type,Flag,Reduced,In,Out',
      '4,Cast-op4,Default/net/Cast-op4,Cast,raise,N,,',
      '1,Conv2D-op1,Default/net/Conv2D-op1,Conv2D,,,,Default/net/Cast-op2 [[4]] DT_TENSOR[DT_FLOAT32]',
      '',
    ])
  })

  it('names the file after the job and the graph file', () => {
    expect(csvFileName('./run 1', 'ms_output.pb')).toBe('operator_precision_run_1_ms_output.pb.csv')
    expect(csvFileName('', '')).toBe('operator_precision.csv')
  })
})
