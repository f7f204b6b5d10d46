import { linePairs } from './linePairs.js'
import { describe, expect, it } from 'vitest'
import { buildScalarSeries } from '@/lib/scalarSeries.js'
import { unionByStep } from '@/lib/scalarBuckets.js'
import { buildScalarOption, lonePairs, prepareLine, stepSpan, valuesByStep, xValue } from '@/lib/scalarChartOption.js'
import { readScalarView, writeScalarView } from '@/lib/scalarView.js'
import { smoothMovingAverage, smoothTimeWeighted, smoothValues } from '@/lib/smoothing.js'

const series = buildScalarSeries([
  { step: 0, wall_time: 9, value: 4 },
  { step: 1, wall_time: 10, value: 2 },
  { step: 3, wall_time: 12, value: 6 },
  { step: 4, wall_time: 15, value: null, non_finite: 'NaN' },
  { step: 8, wall_time: 16, value: 1 },
])
const epochs = buildScalarSeries([
  { step: 1, wall_time: 10, value: 0.5 },
  { step: 3, wall_time: 12, value: 1.5 },
  { step: 4, wall_time: 15, value: 2 },
  { step: 5, wall_time: 15, value: 2.5 },
  { step: 8, wall_time: 16, value: null },
])
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
const smoothedOf = (line) => line.points.map((point) => point.smoothed)

describe('smoothing methods of a line', () => {
  const values = [4, 2, 6, null, 1]
  const steps = [0, 1, 3, 4, 8]

  it('smooths by the chosen method over the steps', () => {
    expect(smoothedOf(prepareLine(series, { smoothing: 0.5 }))).toEqual(smoothValues(values, 0.5))
    expect(smoothedOf(prepareLine(series, { smoothing: 0.5, smoothingMethod: 'time-ema' }))).toEqual(
      smoothTimeWeighted(steps, values, 0.5),
    )
    expect(smoothedOf(prepareLine(series, { smoothing: 0.5, smoothingMethod: 'moving-average' }))).toEqual(
      smoothMovingAverage(steps, values, 0.5),
    )
    // Steps 0, 1 are within one step of each other (mean 3); 3 and 4 too but 4 is NaN.
    expect(smoothedOf(prepareLine(series, { smoothing: 0.5, smoothingMethod: 'moving-average' }))).toEqual([
      3,
      3,
      6,
      null,
      1,
    ])
  })

  it('measures distances in the unit given', () => {
    const line = prepareLine(series, { smoothing: 0.5, smoothingMethod: 'moving-average', unit: 2 })
    // Half window 2 steps: 0,1 | 0,1,3 | 1,3 | - | 8.
    expect(smoothedOf(line)).toEqual([3, 4, 4, null, 1])
    expect(stepSpan(series)).toBe(8)
    expect(stepSpan(buildScalarSeries([]))).toBe(0)
  })
})

describe('x axes', () => {
  it('leaves out steps <= 0 on the log step axis, after smoothing all of them', () => {
    const line = prepareLine(series, { xAxis: 'logstep', smoothing: 0.5 })
    expect(line.points.map((point) => point.x)).toEqual([1, 3, 4, 8])
    expect(line.droppedX).toBe(1)
    expect(line.points.map((point) => point.smoothed)).toEqual(smoothValues(values(), 0.5).slice(1))
    const option = buildScalarOption({
      lines: [{ tag: 'loss', run: './a', line }],
      xAxis: 'logstep',
      colors: ['#0aa'],
      labels,
    })
    expect(option.xAxis.type).toBe('log')
    expect(linePairs(option.series.find((item) => item.id === 'smoothed-0').data).map((point) => point[0])).toEqual([
      1, 3, 4, 8,
    ])
  })

  it('takes the x from another tag joined on the step, dropping steps it lacks', () => {
    const xValues = valuesByStep(epochs)
    expect([...xValues]).toEqual([
      [1, 0.5],
      [3, 1.5],
      [4, 2],
      [5, 2.5],
    ])
    const line = prepareLine(series, { xAxis: 'scalar', xValues })
    // Step 0 has no epoch, step 8's epoch is not finite: both are left out; the NaN at step 4 stays a gap.
    expect(line.points.map((point) => [point.x, point.drawn])).toEqual([
      [0.5, 2],
      [1.5, 6],
      [2, null],
    ])
    expect(line.droppedX).toBe(2)
    expect(line.nonFinite.map((point) => point.x)).toEqual([2])
    const option = buildScalarOption({
      lines: [{ tag: 'loss', run: './a', line }],
      xAxis: 'scalar',
      xName: 'epoch',
      colors: ['#0aa'],
      labels,
    })
    expect(option.xAxis).toMatchObject({ type: 'value', name: 'epoch', scale: true })
    const params = [{ seriesId: 'smoothed-0', dataIndex: 1 }]
    const html = option.tooltip.formatter(params)
    expect(html).toContain('<th>epoch</th>')
    expect(html).toContain('<td>1.5</td>')
  })

  it('keeps the other axes as they were', () => {
    expect(xValue('step', 5, 10, 2)).toBe(5)
    expect(xValue('relative', 5, 10, 2)).toBe(8)
    expect(xValue('absolute', 5, 10, 2)).toBe(10_000)
    expect(xValue('logstep', 0, 10, 2)).toBeNull()
    expect(xValue('scalar', 5, 10, 2, new Map([[5, 7]]))).toBe(7)
    expect(xValue('scalar', 6, 10, 2, new Map([[5, 7]]))).toBeNull()
    expect(prepareLine(buildScalarSeries([]), { xAxis: 'scalar', xValues: new Map() })).toMatchObject({
      points: [],
      droppedX: 0,
    })
  })
})

function values() {
  return [4, 2, 6, null, 1]
}

describe('view query of the new choices', () => {
  it('reads and writes the method, the log step axis and the x tag', () => {
    expect(readScalarView({ smoother: 'time-ema', xaxis: 'logstep' })).toMatchObject({
      smoothingMethod: 'time-ema',
      xAxis: 'logstep',
      xTag: null,
    })
    expect(readScalarView({ smoother: 'bogus' }).smoothingMethod).toBe('ema')
    expect(readScalarView({ xaxis: 'scalar', xtag: 'epoch/scalar' })).toMatchObject({
      xAxis: 'scalar',
      xTag: 'epoch/scalar',
    })
    // The scalar axis without its tag is the step axis.
    expect(readScalarView({ xaxis: 'scalar' }).xAxis).toBe('step')
    const base = { train_id: './a' }
    const next = writeScalarView(base, { smoothingMethod: 'moving-average', xAxis: 'scalar', xTag: 'epoch/scalar' })
    expect(next).toEqual({ ...base, smoother: 'moving-average', xaxis: 'scalar', xtag: 'epoch/scalar' })
    expect(writeScalarView(next, { smoothingMethod: 'ema', xAxis: 'step', xTag: null })).toEqual(base)
  })
})

describe('log step axis over buckets', () => {
  it('draws the sampled points and the buckets points together, once per step', () => {
    const sample = [
      { step: 1, value: 5, wall_time: 1 },
      { step: 2, value: 4, wall_time: 2 },
      { step: 500, value: 1, wall_time: 9 },
    ]
    const rows = [
      { step: 1, value: 5, wall_time: 1 },
      { step: 250, value: 90, wall_time: undefined },
      { step: 500, value: 1, wall_time: 9 },
    ]
    const union = unionByStep(sample, rows)
    expect(buildScalarSeries(union).data.map(([step, value]) => [step, value])).toEqual([
      [1, 5],
      [2, 4],
      [250, 90],
      [500, 1],
    ])
    expect(unionByStep(null, rows)).toEqual(rows)
    expect(unionByStep([], [])).toEqual([])
  })
})

describe('points no line shows', () => {
  const option = (line) => buildScalarOption({ lines: [{ tag: 'loss', run: './a', line }], colors: ['#0aa'], labels })
  const dots = (built) => {
    const found = built.series.find((item) => item.id === 'lone-0')
    return found ? linePairs(found.data).filter(([x]) => !Number.isNaN(x)) : null
  }

  it('draws a dot for a tag of one step', () => {
    const one = prepareLine(buildScalarSeries([{ step: 5, wall_time: 1, value: 0.25 }]))
    expect(dots(option(one))).toEqual([[5, 0.25]])
  })

  it('draws a dot for a value between gaps, and none where a line joins the points', () => {
    // Step 8 follows a NaN and ends the line; steps 0 to 3 are joined.
    expect(dots(option(prepareLine(series)))).toEqual([[8, 1]])
    expect(dots(option(prepareLine(epochs)))).toBeNull()
    expect(dots(option(prepareLine(buildScalarSeries([]))))).toBeNull()
  })

  it('gives the dots as pairs split by gaps, so no segment joins two of them', () => {
    const points = [
      { x: 1, smoothed: 2 },
      { x: 2, smoothed: null },
      { x: 3, smoothed: 4 },
    ]
    expect(Array.from(lonePairs(points, 'smoothed'))).toEqual([1, 2, NaN, NaN, 3, 4, NaN, NaN])
  })
})
