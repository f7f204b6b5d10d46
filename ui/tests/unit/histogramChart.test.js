import { describe, expect, it } from 'vitest'
import {
  bucketAt,
  buildDistributionOption,
  buildRidges,
  countAt,
  GRADIENTS,
  gradient,
  nearestRidge,
  ridgeY,
} from '@/lib/histogramChart.js'

// Two steps on one grid of three buckets [-1,0), [0,1), [1,2), given out of step order.
const HISTOGRAMS = [
  {
    step: 20,
    wall_time: 1000.5,
    buckets: [
      [-1, 1, 2],
      [0, 1, 8],
      [1, 1, 4],
    ],
  },
  {
    step: 10,
    wall_time: 990.5,
    buckets: [
      [0, 1, 6],
      [-1, 1, 1],
      [1, 1, 0],
    ],
  },
]

const OPTIONS = { colors: GRADIENTS.light, formatX: String, formatY: String }

describe('buildRidges', () => {
  it('sorts steps, closes each curve at the outer bucket edges and finds the extents', () => {
    const { ridges, minX, maxX, maxCount } = buildRidges(HISTOGRAMS)
    expect(ridges.map((ridge) => ridge.step)).toEqual([10, 20])
    expect(ridges[0].points).toEqual([
      [-1, 0],
      [-0.5, 1],
      [0.5, 6],
      [1.5, 0],
      [2, 0],
    ])
    expect(ridges.map((ridge) => ridge.relative)).toEqual([0, 10])
    expect([minX, maxX, maxCount]).toEqual([-1, 2, 8])
  })

  it('drops unusable samples and survives an empty answer', () => {
    expect(buildRidges([{ step: 1, buckets: [] }, { step: 'x', buckets: [[0, 1, 1]] }, null]).ridges).toEqual([])
    expect(buildRidges(undefined)).toEqual({ ridges: [], minX: 0, maxX: 1, maxCount: 0 })
  })
})

describe('ridge helpers', () => {
  const { ridges } = buildRidges(HISTOGRAMS)

  it('places a ridge by step, relative seconds or absolute milliseconds', () => {
    expect(['step', 'relative', 'absolute'].map((axis) => ridgeY(ridges[1], axis))).toEqual([20, 10, 1000500])
  })

  it('interpolates counts and finds the bucket under x', () => {
    expect(countAt(ridges[1], 0)).toBe(5) // halfway between 2 (at -0.5) and 8 (at 0.5)
    expect(countAt(ridges[1], 5)).toBe(0)
    expect(bucketAt(ridges[1], 0.25)).toEqual([0, 1, 8])
    expect(bucketAt(ridges[1], 7)).toEqual([1, 1, 4])
  })

  it('picks the ridge whose curve passes nearest to the pointer', () => {
    // A fake pixel mapping: each ridge's baseline 100 px apart, counts raise it 10 px each.
    const pixelY = (index, count) => 100 + index * 100 - count * 10
    expect(nearestRidge(ridges, 0.5, 40, pixelY)).toBe(0) // ridge 0 at x=0.5 is 100-60=40
    expect(nearestRidge(ridges, 0.5, 130, pixelY)).toBe(1) // ridge 1 at x=0.5 is 200-80=120
  })

  it('spreads colours from the oldest to the newest', () => {
    expect(gradient(3, '#000000', '#ffffff')).toEqual(['#000000', '#808080', '#ffffff'])
    expect(gradient(1, '#102030', '#ffffff')).toEqual(['#102030'])
  })
})

describe('buildDistributionOption', () => {
  const model = buildRidges(HISTOGRAMS)

  it('front view: one line per step over a count axis', () => {
    const option = buildDistributionOption(model, { ...OPTIONS, view: 'front', axis: 'step' })
    expect(option.series.map((series) => series.type)).toEqual(['line', 'line'])
    expect(option.series[1].data).toEqual([
      [-0.5, 2],
      [0.5, 8],
      [1.5, 4],
    ])
    expect(option.yAxis.type).toBe('value')
    expect(option.series[0].lineStyle.color).toBe(GRADIENTS.light.oldest)
  })

  it('top view: one custom series stacked along the chosen axis', () => {
    const byStep = buildDistributionOption(model, { ...OPTIONS, view: 'top', axis: 'step' })
    expect(byStep.series).toHaveLength(1)
    expect(byStep.series[0].type).toBe('custom')
    expect(byStep.series[0].data.map((item) => item[1])).toEqual([10, 20])
    expect(byStep.yAxis).toMatchObject({ type: 'value', inverse: true, min: 10, max: 20 })

    const byTime = buildDistributionOption(model, { ...OPTIONS, view: 'top', axis: 'absolute' })
    expect(byTime.yAxis).toMatchObject({ type: 'time', min: 990500, max: 1000500 })
    const byRelative = buildDistributionOption(model, { ...OPTIONS, view: 'top', axis: 'relative' })
    expect(byRelative.series[0].data.map((item) => item[1])).toEqual([0, 10])
  })

  it('draws nothing without data', () => {
    expect(buildDistributionOption(buildRidges([]), { ...OPTIONS, view: 'top', axis: 'step' }).series).toEqual([])
  })
})
