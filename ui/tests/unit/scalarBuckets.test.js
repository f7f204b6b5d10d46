import { describe, expect, it } from 'vitest'
import {
  bucketPoints,
  bucketRange,
  bucketWidth,
  MAX_BUCKET_WIDTH,
  sameBuckets,
  spliceWindow,
  wallTimesByStep,
} from '@/lib/scalarBuckets.js'
import { buildScalarSeries } from '@/lib/scalarSeries.js'
import { prepareLine, tooltipHtml } from '@/lib/scalarChartOption.js'

const point = (step, value) => ({ step, value })

function bucket(first, min, max, last, extra = {}) {
  return { count: 4, first, last, min, max, nan: 0, inf: 0, neg_inf: 0, ...extra }
}

describe('scalar buckets to line points', () => {
  it('goes through first, min, max and last in step order, so both extremes show', () => {
    // The max (a spike) comes before the min inside the bucket: step order, not min-then-max.
    const rows = bucketPoints([bucket(point(1, 1), point(7, -3), point(4, 99), point(9, 2))])
    expect(rows.map((row) => [row.step, row.value])).toEqual([
      [1, 1],
      [4, 99],
      [7, -3],
      [9, 2],
    ])
  })

  it('lists a point that is two of them once, and a one-point bucket as one point', () => {
    const rows = bucketPoints([
      bucket(point(1, 5), point(1, 5), point(3, 8), point(3, 8)),
      bucket(point(10, 4), point(10, 4), point(10, 4), point(10, 4), { count: 1 }),
    ])
    expect(rows.map((row) => row.step)).toEqual([1, 3, 10])
  })

  it('keeps non-finite first/last points as gaps named by their kind; no min/max without finite values', () => {
    const nan = { step: 5, value: null, non_finite: 'NaN' }
    const inf = { step: 6, value: null, non_finite: 'Infinity' }
    const rows = bucketPoints([bucket(nan, null, null, inf, { count: 2, nan: 1, inf: 1 })])
    expect(rows).toEqual([
      { step: 5, value: null, wall_time: undefined, non_finite: 'NaN' },
      { step: 6, value: null, wall_time: undefined, non_finite: 'Infinity' },
    ])
    const series = buildScalarSeries(rows)
    expect(series.invalid).toEqual([
      { step: 5, kind: 'NaN' },
      { step: 6, kind: 'Infinity' },
    ])
  })

  it('takes wall times from the sampled points; the others have none and the tooltip says so', () => {
    const times = wallTimesByStep([{ step: 1, wall_time: 100, value: 1 }])
    const rows = bucketPoints([bucket(point(1, 1), point(1, 1), point(2, 50), point(2, 50))], times)
    expect(rows.map((row) => row.wall_time)).toEqual([100, undefined])
    const line = prepareLine(buildScalarSeries(rows), { firstWallTime: 90 })
    expect(line.points[0].relative).toBe(10)
    const labels = { run: 'r', tag: 't', value: 'v', step: 's', relativeTime: 'rt', absoluteTime: 'at', kind: String }
    const html = tooltipHtml([{ color: '#000', run: 'job', tag: 'loss', point: line.points[1] }], labels, {
      smoothing: 0,
    })
    expect(html).toContain('<td>50</td><td>2</td><td>-</td><td>-</td>')
    expect(html).not.toContain('NaN')
  })

  it('smooths what is drawn, spike included', () => {
    const rows = bucketPoints([
      bucket(point(1, 1), point(1, 1), point(2, 99), point(3, 1)),
      bucket(point(4, 1), point(4, 1), point(4, 1), point(4, 1), { count: 1 }),
    ])
    const line = prepareLine(buildScalarSeries(rows), { smoothing: 0.5 })
    expect(line.points.map((p) => p.drawn)).toEqual([1, 99, 1, 1])
    expect(line.points[1].smoothed).toBeCloseTo((0.5 * 0.5 * 1 + 0.5 * 99) / (1 - 0.25))
  })
})

describe('the range and width a chart asks for', () => {
  it('asks for the whole range unzoomed and the whole steps covering a zoom window', () => {
    expect(bucketRange(null)).toEqual({})
    expect(bucketRange({ x: null })).toEqual({})
    expect(bucketRange({ x: [10.4, 20.2] })).toEqual({ start: 10, end: 21 })
    expect(bucketRange({ x: [20.2, 10.4] })).toEqual({ start: 10, end: 21 })
  })

  it('asks for one bucket per pixel column, within the server limit', () => {
    expect(bucketWidth(640.4)).toBe(640)
    expect(bucketWidth(0)).toBe(1)
    expect(bucketWidth(Number.NaN)).toBe(1)
    expect(bucketWidth(100000)).toBe(MAX_BUCKET_WIDTH)
  })

  it('lays a zoom window into the whole range, so the line runs on to its edges', () => {
    const outer = [1, 50, 100, 150, 200].map((step) => ({ step }))
    const inner = [60, 61, 62].map((step) => ({ step }))
    expect(spliceWindow(outer, inner, { start: 55, end: 120 }).map((row) => row.step)).toEqual([
      1, 50, 60, 61, 62, 150, 200,
    ])
  })

  it('tells answers that draw the same points from new ones', () => {
    const answer = (value) => [{ buckets: [bucket(point(1, 1), point(1, 1), point(2, value), point(2, value))] }]
    expect(sameBuckets(answer(3), answer(3))).toBe(true)
    expect(sameBuckets(answer(3), answer(4))).toBe(false)
    expect(sameBuckets(null, answer(3))).toBe(false)
  })
})
