import { describe, expect, it } from 'vitest'
import {
  detailRows,
  searchCondition,
  sortColumn,
  topTypesOption,
  typeColor,
  typeRows,
  typesCsv,
  viewsOf,
} from '@/lib/profilerViews.js'

const cpu = viewsOf('cpu')

describe('profiler views', () => {
  it('picks the views by profiler type, Ascend for any other', () => {
    expect(cpu.type.opType).toBe('cpu_op_type')
    expect(viewsOf('gpu').detail.opType).toBe('gpu_op_info')
    expect(viewsOf('ascend').type.opType).toBe('aicore_type')
    expect(viewsOf(undefined).type.opType).toBe('aicore_type')
  })

  it('reads type and operator rows in ms from the answer in µs', () => {
    const types = typeRows(
      {
        col_name: [
          'op_type',
          'type_occurrences',
          'execution_frequency',
          'total_compute_time',
          'avg_time',
          'total_time_proportion',
        ],
        object: [['Conv2D', 90, 1, 146368.0, 1626.3, 26.16]],
      },
      cpu.type,
    )
    expect(types).toEqual([{ type: 'Conv2D', timeMs: 146.368, count: 90, share: 26.16 }])
    const ops = detailRows(
      {
        col_name: [
          'op_side',
          'op_type',
          'op_name',
          'full_op_name',
          'op_occurrences',
          'op_total_time',
          'op_avg_time',
          'total_time_proportion',
          'subgraph',
        ],
        object: [['Host', 'Conv2D', 'Conv2D-op0', 'Default/net/Conv2D-op0', 10, 31425.2, 3142.52, 5.6, 'Default']],
      },
      cpu.detail,
    )
    expect(ops[0]).toMatchObject({
      name: 'Conv2D-op0',
      timeMs: 31.4252,
      avgMs: 3.1425,
      count: 10,
      info: 'Host · Default',
    })
  })

  it('builds the search condition and sorts by the view columns', () => {
    expect(
      searchCondition(cpu.detail, 0, {
        filters: { op_type: { in: ['Conv2D'] }, op_name: null },
        sort: { name: 'op_total_time', type: 'ascending' },
        page: 3,
        size: 20,
      }),
    ).toEqual({
      op_type: 'cpu_op_info',
      device_id: '0',
      group_condition: { limit: 20, offset: 2 },
      filter_condition: { op_type: { in: ['Conv2D'] } },
      sort_condition: { name: 'op_total_time', type: 'ascending' },
    })
    expect(sortColumn(cpu.detail, 'type')).toBe('op_type')
    expect(sortColumn(cpu.detail, 'name')).toBe('op_name')
    expect(sortColumn(cpu.type, 'type')).toBe('op_type')
    expect(sortColumn(cpu.type, 'timeMs')).toBe('total_compute_time')
    expect(sortColumn(viewsOf('ascend').detail, 'share')).toBeNull()
  })

  it('draws the types as a pie or bars and writes CSV', () => {
    const rows = [
      { type: 'A', timeMs: 2, count: 1, share: 66.7 },
      { type: 'B', timeMs: 1, count: 3, share: 33.3 },
    ]
    const labels = { time: 'ms', share: 'share' }
    const pie = topTypesOption(rows, 'pie', labels)
    expect(pie.baseOption.series[0].type).toBe('pie')
    expect(pie.media[0].option.legend.orient).toBe('horizontal')
    const bar = topTypesOption(rows, 'bar', labels)
    expect(bar.series[0].type).toBe('bar')
    expect(bar.xAxis.data).toEqual(['A', 'B'])
    expect(bar.tooltip.formatter({ name: 'A', value: 2, data: rows[0] && { share: 66.7 } })).toBe(
      'A<br>ms: 2<br>share: 66.70%',
    )
    expect(typesCsv(rows, ['t', 'ms', 'n', '%'])).toBe('t,ms,n,%\r\nA,2,1,66.7\r\nB,1,3,33.3\r\n')
  })

  it('gives each of the top 20 types its own colour, the same in the pie and the bars', () => {
    const labels = { time: 'ms', share: 'share' }
    const rows = Array.from({ length: 20 }, (_, index) => ({ type: `T${index}`, timeMs: 20 - index }))
    for (const theme of ['light', 'dark']) {
      const pieColors = topTypesOption(rows, 'pie', labels, theme).baseOption.series[0].data.map(
        (item) => item.itemStyle.color,
      )
      const barColors = topTypesOption(rows, 'bar', labels, theme).series[0].data.map((item) => item.itemStyle.color)
      expect(new Set(pieColors).size).toBe(20)
      expect(barColors).toEqual(pieColors)
    }
    expect(typeColor(0, 'dark')).not.toBe(typeColor(0, 'light'))
  })
})
