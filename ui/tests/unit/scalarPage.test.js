import { linePairs } from './linePairs.js'
import { describe, expect, it } from 'vitest'
import { clampSmoothing, smoothValues } from '@/lib/smoothing.js'
import {
  describeThreshold,
  inThreshold,
  loadThresholds,
  normalizeThreshold,
  saveThresholds,
  thresholdIntervals,
  thresholdSegments,
} from '@/lib/scalarThreshold.js'
import { exportFileName, exportRows, rowsToCsv, rowsToJson } from '@/lib/scalarExport.js'
import { readScalarView, writeScalarView } from '@/lib/scalarView.js'
import { buildScalarOption, prepareLine, tooltipHtml } from '@/lib/scalarChartOption.js'
import { buildScalarSeries } from '@/lib/scalarSeries.js'
import { memoryStorage } from './storage.js'

const lt = (value) => ({ op: 'lt', value })
const gt = (value) => ({ op: 'gt', value })

describe('smoothing', () => {
  it('is a debiased exponential moving average', () => {
    const w = 0.6
    const values = [1, 2, 4, 3]
    let last = 0
    const expected = values.map((value, index) => {
      last = last * w + (1 - w) * value
      return last / (1 - w ** (index + 1))
    })
    expect(smoothValues(values, w)).toEqual(expected)
    // Debiasing: the first smoothed value is the first value, not (1 - w) times it.
    expect(smoothValues([5, 5.5], 0.9)[0]).toBeCloseTo(5, 12)
  })

  it('skips non-finite values without moving the average', () => {
    const smoothed = smoothValues([1, null, 3], 0.5)
    expect(smoothed[1]).toBeNull()
    expect(smoothed[2]).toBeCloseTo((0.5 * 0.5 * 1 + 0.5 * 3) / (1 - 0.25), 12)
    expect(smoothValues([Number.NaN, 2], 0.5)).toEqual([null, 2])
  })

  it('leaves weight 0 and constant series unchanged', () => {
    expect(smoothValues([3, 1, 2], 0)).toEqual([3, 1, 2])
    expect(smoothValues([0.1, 0.1, null, 0.1], 0.9)).toEqual([0.1, 0.1, null, 0.1])
  })

  it('clamps the weight to 0..0.99', () => {
    expect(clampSmoothing('0.6')).toBe(0.6)
    expect(clampSmoothing(1)).toBe(0.99)
    expect(clampSmoothing(-2)).toBe(0)
    expect(clampSmoothing('abc')).toBe(0)
    expect(clampSmoothing(0.123)).toBe(0.12)
  })
})

describe('thresholds', () => {
  it('accepts one or two conditions and refuses the rest', () => {
    expect(normalizeThreshold({ conditions: [lt('0.5')] })).toEqual({ conditions: [lt(0.5)], logic: 'and' })
    expect(normalizeThreshold({ conditions: [lt(1), gt(2)], logic: 'or' })).toEqual({
      conditions: [lt(1), gt(2)],
      logic: 'or',
    })
    expect(normalizeThreshold({ conditions: [lt(1), gt(2)] })).toBeNull() // two conditions need AND/OR
    expect(normalizeThreshold({ conditions: [{ op: 'eq', value: 1 }] })).toBeNull()
    expect(normalizeThreshold({ conditions: [lt('x')] })).toBeNull()
    expect(normalizeThreshold({ conditions: [lt(Infinity)] })).toBeNull()
    expect(normalizeThreshold(null)).toBeNull()
  })

  it('tests values and describes the highlighted intervals like the original', () => {
    const band = normalizeThreshold({ conditions: [gt(0.2), lt(0.8)], logic: 'and' })
    const outside = normalizeThreshold({ conditions: [lt(0.2), gt(0.8)], logic: 'or' })
    expect([0.1, 0.2, 0.5, 0.9].map((y) => inThreshold(band, y))).toEqual([false, false, true, false])
    expect([0.1, 0.2, 0.5, 0.9].map((y) => inThreshold(outside, y))).toEqual([true, false, false, true])
    expect(inThreshold(outside, Number.NaN)).toBe(false)
    expect(describeThreshold(normalizeThreshold({ conditions: [lt(0.5)] }))).toBe('(-Infinity,0.5)')
    expect(describeThreshold(band)).toBe('(0.2,0.8)')
    expect(describeThreshold(outside)).toBe('(-Infinity,0.2)∪(0.8,Infinity)')
    expect(describeThreshold(normalizeThreshold({ conditions: [lt(1), gt(2)], logic: 'and' }))).toBe('∅')
    expect(thresholdIntervals(normalizeThreshold({ conditions: [lt(2), gt(1)], logic: 'or' }))).toEqual([
      [-Infinity, Infinity],
    ])
    expect(describeThreshold(null)).toBe('-')
  })

  it('cuts segments exactly where they cross the threshold', () => {
    const threshold = normalizeThreshold({ conditions: [lt(1)] })
    const points = [
      [0, 2],
      [1, 0],
      [2, 0.5],
      [3, 3],
    ]
    const { data, matched } = thresholdSegments(points, threshold)
    expect(matched).toEqual([1, 2])
    // 2 -> 0 crosses 1 at x = 0.5; 0.5 -> 3 crosses 1 at x = 2.2.
    expect(data).toEqual([
      [0.5, 1],
      [1, 0],
      [2, 0.5],
      [2.2, 1],
    ])
  })

  it('splits runs at gaps and at every crossing of an OR threshold', () => {
    const threshold = normalizeThreshold({ conditions: [lt(0), gt(10)], logic: 'or' })
    // -5 -> 15 leaves the low region at x=0.25 and enters the high one at x=0.75.
    const { data } = thresholdSegments(
      [
        [0, -5],
        [1, 15],
        [2, null],
        [3, 20],
      ],
      threshold,
    )
    expect(data).toEqual([[0, -5], [0.25, 0], null, [0.75, 10], [1, 15], null, [3, 20]])
  })

  it('interpolates in the drawn space on a log axis', () => {
    const threshold = normalizeThreshold({ conditions: [lt(10)] })
    const { data } = thresholdSegments(
      [
        [0, 1],
        [1, 100],
      ],
      threshold,
      { transform: Math.log10, inverse: (u) => 10 ** u },
    )
    expect(data).toEqual([
      [0, 1],
      [0.5, 10],
    ])
  })

  it('has nothing to highlight without a threshold or with no point inside', () => {
    expect(thresholdSegments([[0, 1]], null)).toEqual({ data: [], matched: [] })
    expect(thresholdSegments([[0, 5]], normalizeThreshold({ conditions: [lt(1)] })).data).toEqual([])
  })

  it('are saved per job and tag in localStorage (thresholdCache) and deleted again', () => {
    const storage = memoryStorage()
    const threshold = normalizeThreshold({ conditions: [lt(0.5)] })
    expect(saveThresholds(storage, './a', ['loss', 'acc'], threshold)).toEqual({ loss: threshold, acc: threshold })
    saveThresholds(storage, './b', ['loss'], threshold)
    expect(Object.keys(JSON.parse(storage.getItem('thresholdCache')))).toEqual(['./a', './b'])
    expect(saveThresholds(storage, './a', ['acc'], null)).toEqual({ loss: threshold })
    expect(loadThresholds(storage, './a')).toEqual({ loss: threshold })
    storage.setItem('thresholdCache', '{broken')
    expect(loadThresholds(storage, './a')).toEqual({})
  })
})

describe('csv and json export', () => {
  const series = buildScalarSeries([
    { step: 1, wall_time: 100.5, value: 0.25 },
    { step: 2, wall_time: 101.5, value: null, non_finite: 'NaN' },
    { step: 3, wall_time: 102.5, value: null },
  ])

  it('writes every point, naming non-finite values', () => {
    const rows = exportRows('loss', series.data, null)
    expect(rowsToCsv(rows)).toBe('wall_time,step,value\r\n100.5,1,0.25\r\n101.5,2,NaN\r\n102.5,3,\r\n')
    const withSmoothed = exportRows('a,"b"', series.data, [0.25, null, null])
    expect(rowsToCsv(withSmoothed, { withSmoothed: true, withTag: true }).split('\r\n')[1]).toBe(
      '"a,""b""",100.5,1,0.25,0.25',
    )
  })

  it('writes JSON for one tag or several', () => {
    const rows = exportRows('loss', series.data, null)
    const single = JSON.parse(rowsToJson([{ tag: 'loss', rows }], { trainId: './run', smoothing: 0 }))
    expect(single).toEqual({
      train_id: './run',
      smoothing: 0,
      tag: 'loss',
      points: [
        { wall_time: 100.5, step: 1, value: 0.25 },
        { wall_time: 101.5, step: 2, value: null, non_finite: 'NaN' },
        { wall_time: 102.5, step: 3, value: null },
      ],
    })
    const both = JSON.parse(
      rowsToJson(
        [
          { tag: 'a', rows },
          { tag: 'b', rows },
        ],
        { trainId: './run', smoothing: 0.5 },
      ),
    )
    expect(both.series.map((item) => item.tag)).toEqual(['a', 'b'])
    expect(both.series[0].points[0].smoothed).toBe(0.25)
  })

  it('names files safely', () => {
    expect(exportFileName('./b_summary_ops', 'nan_inf_scalar/scalar', 'csv')).toBe(
      'b_summary_ops_nan_inf_scalar_scalar.csv',
    )
    expect(exportFileName('', '', 'json')).toBe('scalar.json')
  })
})

describe('scalar view query', () => {
  it('reads defaults and values, and ignores bad ones', () => {
    expect(readScalarView({ train_id: './a' })).toEqual({
      filter: '',
      smoothing: 0,
      smoothingMethod: 'ema',
      xAxis: 'step',
      xTag: null,
      logY: [],
      page: 1,
      synthesis: null,
      synthesisLogY: false,
      fullscreen: null,
    })
    const view = readScalarView({
      smoothing: '0.6',
      xaxis: 'relative',
      logy: 'a,b\\,c',
      page: '2',
      synthesis: 'x,y,z',
      full: '',
      filter: '^l',
      synthlog: '1',
    })
    expect(view).toMatchObject({ smoothing: 0.6, xAxis: 'relative', logY: ['a', 'b,c'], page: 2, fullscreen: '' })
    expect(view.synthesis).toEqual(['x', 'y'])
    expect(readScalarView({ xaxis: 'bogus', page: '-3', smoothing: '7' })).toMatchObject({
      xAxis: 'step',
      page: 1,
      smoothing: 0.99,
    })
    expect(readScalarView({ synthesis: '' }).synthesis).toEqual([])
  })

  it('writes only what differs from the defaults and keeps the job', () => {
    const base = { train_id: './a', summaryPath: './a', tags: 'x' }
    const next = writeScalarView(base, { smoothing: 0.6, xAxis: 'absolute', logY: ['x'], page: 3, synthesis: ['x'] })
    expect(next).toEqual({ ...base, smoothing: '0.6', xaxis: 'absolute', logy: 'x', page: '3', synthesis: 'x' })
    expect(writeScalarView(next, { smoothing: 0, xAxis: 'step', logY: [], page: 1, synthesis: null })).toEqual(base)
    expect(writeScalarView(base, { fullscreen: '' }).full).toBe('')
    expect(writeScalarView({ ...base, full: 't' }, { fullscreen: null })).toEqual(base)
  })
})

describe('scalar chart option', () => {
  const metadatas = [
    { step: 1, wall_time: 10, value: 2 },
    { step: 2, wall_time: 12, value: 0 },
    { step: 3, wall_time: 15, value: null, non_finite: 'Infinity' },
    { step: 4, wall_time: 16, value: 0.5 },
  ]
  const labels = {
    run: 'Name',
    tag: 'Tag',
    smoothed: 'Smoothed',
    value: 'Value',
    step: 'Step',
    relativeTime: 'Relative time',
    absoluteTime: 'Absolute time',
    kind: (kind) => kind,
  }
  const build = (options, extra = {}) =>
    buildScalarOption({
      lines: [{ tag: 'loss', run: './a', line: prepareLine(buildScalarSeries(metadatas), options), ...extra }],
      colors: ['#0aa'],
      labels,
      ...options,
    })
  const byId = (option, id) => option.series.find((series) => series.id === id)

  it('draws smoothed over raw, marks non-finite steps', () => {
    const plain = build({})
    expect(byId(plain, 'raw-0')).toBeUndefined()
    expect(linePairs(byId(plain, 'smoothed-0').data)).toEqual([
      [1, 2],
      [2, 0],
      [3, null],
      [4, 0.5],
    ])
    expect(byId(plain, 'smoothed-0').markLine.data).toMatchObject([{ xAxis: 3, name: '+Inf' }])
    const smooth = build({ smoothing: 0.5 })
    expect(linePairs(byId(smooth, 'raw-0').data).map((point) => point[1])).toEqual([2, 0, null, 0.5])
    expect(linePairs(byId(smooth, 'smoothed-0').data).map((point) => point[1])).toEqual(
      smoothValues([2, 0, null, 0.5], 0.5),
    )
  })

  it('switches the axes', () => {
    expect(linePairs(build({ xAxis: 'relative' }).series[0].data).map((point) => point[0])).toEqual([0, 2, 5, 6])
    const absolute = build({ xAxis: 'absolute' })
    expect(absolute.xAxis.type).toBe('time')
    expect(linePairs(absolute.series[0].data)[0][0]).toBe(10000)
    const log = build({ logY: true })
    expect(log.yAxis[0].type).toBe('log')
    expect(linePairs(log.series[0].data).map((point) => point[1])).toEqual([2, null, null, 0.5]) // 0 cannot be drawn
  })

  it('applies the zoom window and the threshold', () => {
    const zoomed = build({ zoom: { x: [1.5, 3], y: [[0, 1]] } })
    expect([zoomed.xAxis.min, zoomed.xAxis.max, zoomed.yAxis[0].min, zoomed.yAxis[0].max]).toEqual([1.5, 3, 0, 1])
    const threshold = normalizeThreshold({ conditions: [lt(1)] })
    const option = build({}, { threshold })
    // 2 -> 0 crosses 1 at step 1.5; after the Infinity gap, 0.5 is a lone point inside.
    expect(byId(option, 'threshold-0').data).toEqual([[1.5, 1], [2, 0], null, { value: [4, 0.5], symbolSize: 5 }])
    expect(byId(option, 'threshold-0').markLine.data).toEqual([{ yAxis: 1 }])
  })

  it('puts two tags on two y axes', () => {
    const series = buildScalarSeries(metadatas)
    const option = buildScalarOption({
      lines: [
        { tag: 'a', run: './r', line: prepareLine(series) },
        { tag: 'b', run: './r', line: prepareLine(series) },
      ],
      colors: ['#0aa', '#66f'],
      labels,
    })
    expect(option.yAxis.map((axis) => [axis.name, axis.position])).toEqual([
      ['a', 'left'],
      ['b', 'right'],
    ])
    // Each with its dot for step 4, which follows a gap (+Inf) and ends the line.
    expect(option.series.map((item) => [item.id, item.yAxisIndex])).toEqual([
      ['smoothed-0', 0],
      ['lone-0', 0],
      ['smoothed-1', 1],
      ['lone-1', 1],
    ])
  })

  it('writes an escaped tooltip naming non-finite values', () => {
    const line = prepareLine(buildScalarSeries(metadatas))
    const html = tooltipHtml([{ color: '#0aa', run: './a', tag: '<b>', point: line.points[2] }], labels, {
      smoothing: 0,
    })
    expect(html).toContain('&#60;b&#62;')
    expect(html).toContain('<td>Infinity</td>')
    expect(html).toContain('<td>5s</td>')
  })
})
