import { describe, expect, it } from 'vitest'
import {
  movingAverageHalfWindow,
  smoothingMethod,
  smoothingUnit,
  smoothMovingAverage,
  smoothSeries,
  smoothTimeWeighted,
  smoothValues,
} from '@/lib/smoothing.js'

const close = (actual, expected) => {
  expect(actual).toHaveLength(expected.length)
  actual.forEach((value, index) => {
    if (expected[index] === null) expect(value).toBeNull()
    else expect(value).toBeCloseTo(expected[index], 12)
  })
}

describe('method names and units', () => {
  it('falls back to the debiased EMA for unknown names', () => {
    expect(smoothingMethod('time-ema')).toBe('time-ema')
    expect(smoothingMethod('moving-average')).toBe('moving-average')
    expect(smoothingMethod('gaussian')).toBe('ema')
    expect(smoothingMethod(undefined)).toBe('ema')
  })

  it('counts in steps up to 1000 steps, in thousandths of the longest line beyond', () => {
    expect(smoothingUnit([])).toBe(1)
    expect(smoothingUnit([300, 999])).toBe(1)
    expect(smoothingUnit([5000, 20_000, Number.NaN])).toBe(20)
  })

  it('gives the moving average a half window of w / (1 - w) units', () => {
    expect(movingAverageHalfWindow(0)).toBe(0)
    expect(movingAverageHalfWindow(0.5)).toBe(1)
    expect(movingAverageHalfWindow(0.75)).toBe(3)
    expect(movingAverageHalfWindow(5)).toBeCloseTo(99, 9) // clamped to 0.99
  })
})

describe('time-weighted EMA', () => {
  it('matches hand-computed values on uneven steps', () => {
    // w = 0.5, steps 1, 2, 4: decays 0.5 (first), 0.5, 0.25.
    // last: 0.5*2 = 1 -> 1*0.5 + 0.5*4 = 2.5 -> 2.5*0.25 + 0.75*8 = 6.625
    // norm: 0.5 -> 0.75 -> 0.9375; shown: 2, 10/3, 7.0666...
    close(smoothTimeWeighted([1, 2, 4], [2, 4, 8], 0.5), [2, 2.5 / 0.75, 6.625 / 0.9375])
  })

  it('equals the debiased EMA on points one unit apart', () => {
    const values = [3, 1, 4, 1, 5, 9, 2, 6]
    const steps = values.map((_, index) => index + 1)
    close(smoothTimeWeighted(steps, values, 0.6), smoothValues(values, 0.6))
    // Ten steps per unit: points ten steps apart are again one unit apart.
    close(
      smoothTimeWeighted(
        steps.map((step) => step * 10),
        values,
        0.6,
        10,
      ),
      smoothValues(values, 0.6),
    )
  })

  it('is not biased by where the points were sampled', () => {
    // A sampled point stands for the steps since the previous one. Sampled every tenth step up
    // to step 50, then every step: the dense series holding each sample's value over its steps
    // gets the same curve at the sampled steps once the start has decayed (0.6^50 ~ 1e-11).
    // The plain EMA of the sample weighs a tenth-step point like a one-step one and does not.
    const sparse = [10, 20, 30, 40, ...Array.from({ length: 51 }, (_, index) => 50 + index)]
    const value = (step) => Math.sin(step)
    const dense = Array.from({ length: 100 }, (_, index) => index + 1)
    const held = dense.map((step) => value(sparse.find((sample) => sample >= step)))
    const sparseCurve = smoothTimeWeighted(sparse, sparse.map(value), 0.6)
    const denseCurve = smoothTimeWeighted(dense, held, 0.6)
    const emaCurve = smoothValues(sparse.map(value), 0.6)
    for (const step of [60, 75, 100]) {
      expect(sparseCurve[sparse.indexOf(step)]).toBeCloseTo(denseCurve[step - 1], 9)
    }
    // Where the sample thins out, the EMA of the sample strays from the dense curve.
    const stray = [50, 51, 52].map((step) => Math.abs(emaCurve[sparse.indexOf(step)] - denseCurve[step - 1]))
    expect(Math.max(...stray)).toBeGreaterThan(0.05)
    // Time-weighted on the sample is already close there (only the start's weight differs).
    expect(Math.abs(sparseCurve[sparse.indexOf(52)] - denseCurve[51])).toBeLessThan(1e-6)
  })

  it('skips NaN, ±Infinity and null without moving the average', () => {
    const values = [2, Number.NaN, null, Number.POSITIVE_INFINITY, 4]
    // The gap counts as distance: 4 enters 4 steps after 2 (decay 0.5^4 = 1/16).
    const last = 1 * (1 / 16) + (15 / 16) * 4
    const norm = 0.5 * (1 / 16) + 15 / 16
    close(smoothTimeWeighted([1, 2, 3, 4, 5], values, 0.5), [2, null, null, null, last / norm])
  })

  it('handles one point, no point and no smoothing', () => {
    expect(smoothTimeWeighted([7], [3.5], 0.9)).toEqual([3.5])
    expect(smoothTimeWeighted([], [], 0.9)).toEqual([])
    expect(smoothTimeWeighted([1, 3], [1, Number.NEGATIVE_INFINITY], 0)).toEqual([1, null])
  })
})

describe('centred moving average', () => {
  it('matches hand-computed means on uneven steps', () => {
    // w = 0.5: half window 1 step. Steps 1, 2, 4, 5, 9.
    close(smoothMovingAverage([1, 2, 4, 5, 9], [1, 3, 5, 7, 100], 0.5), [2, 2, 6, 6, 100])
    // w = 0.75: half window 3 steps.
    close(smoothMovingAverage([1, 2, 4, 5, 9], [1, 3, 5, 7, 100], 0.75), [3, 4, 4, 5, 100])
  })

  it('scales its window with the unit', () => {
    close(smoothMovingAverage([10, 20, 40, 50, 90], [1, 3, 5, 7, 100], 0.5, 10), [2, 2, 6, 6, 100])
  })

  it('leaves non-finite points out of every window', () => {
    close(smoothMovingAverage([1, 2, 3, 4], [2, Number.NaN, 4, Number.POSITIVE_INFINITY], 0.5), [2, null, 4, null])
    close(smoothMovingAverage([1, 2, 3], [null, 6, 2], 0.5), [null, 4, 4])
  })

  it('stays exact on large values over a long run', () => {
    const steps = Array.from({ length: 5000 }, (_, index) => index)
    const values = steps.map((step) => 1e12 + (step % 2))
    const smoothed = smoothMovingAverage(steps, values, 0.5)
    // Middle windows hold three alternating values: 1e12 + 1/3 or 1e12 + 2/3.
    expect(smoothed[2500]).toBeCloseTo(1e12 + 2 / 3, 3)
    expect(smoothed[2501]).toBeCloseTo(1e12 + 1 / 3, 3)
  })

  it('handles one point, no point and constant series', () => {
    expect(smoothMovingAverage([4], [1.5], 0.9)).toEqual([1.5])
    expect(smoothMovingAverage([], [], 0.9)).toEqual([])
    expect(smoothMovingAverage([1, 2, 3], [0.1, 0.1, 0.1], 0.9)).toEqual([0.1, 0.1, 0.1])
  })
})

describe('smoothSeries', () => {
  it('dispatches on the method', () => {
    const steps = [1, 2, 4]
    const values = [2, 4, 8]
    expect(smoothSeries('ema', steps, values, 0.5)).toEqual(smoothValues(values, 0.5))
    expect(smoothSeries('time-ema', steps, values, 0.5)).toEqual(smoothTimeWeighted(steps, values, 0.5))
    expect(smoothSeries('moving-average', steps, values, 0.5)).toEqual(smoothMovingAverage(steps, values, 0.5))
    expect(smoothSeries('ema', [], [], 0.5)).toEqual([])
  })
})
