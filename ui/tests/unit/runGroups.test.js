import { describe, expect, it } from 'vitest'
import { aggregateRuns, groupByToQuery, groupRuns, parseGroupBy, regexKey } from '@/lib/runGroups.js'

// Three runs on uneven steps. A: 1, 3, 5 at steps 0, 10, 20. B: 3 at 0, NaN at 5, 7 at 20 (its
// NaN is left out, its value at step 10 is the line through 0 and 20: 5). C: 9 at step 10 only.
const A = [
  [0, 1],
  [10, 3],
  [20, 5],
]
const B = [
  [0, 3],
  [5, null],
  [5, NaN],
  [20, 7],
]
const C = [[10, 9]]

const pick = (rows, name) => rows.map((row) => row[name])

describe('group curves', () => {
  it('aligns runs on the union of their steps and interpolates within each run', () => {
    const rows = aggregateRuns([A, B, C])
    expect(pick(rows, 'step')).toEqual([0, 10, 20])
    expect(pick(rows, 'count')).toEqual([2, 3, 2])
    // means: (1+3)/2, (3+5+9)/3, (5+7)/2
    expect(rows[0].center).toBe(2)
    expect(rows[1].center).toBeCloseTo(17 / 3, 12)
    expect(rows[2].center).toBe(6)
  })

  it('bands: sample standard deviation, standard error and min-max', () => {
    const std = aggregateRuns([A, B, C], { band: 'std' })
    // step 0: values 1, 3 -> variance ((1-2)² + (3-2)²) / 1 = 2
    expect(std[0].low).toBeCloseTo(2 - Math.SQRT2, 12)
    expect(std[0].high).toBeCloseTo(2 + Math.SQRT2, 12)
    // step 10: values 3, 5, 9 -> squared deviations 64/9 + 4/9 + 100/9 = 168/9, / 2 = 28/3
    expect(std[1].high - std[1].center).toBeCloseTo(Math.sqrt(28 / 3), 12)
    const sem = aggregateRuns([A, B, C], { band: 'sem' })
    expect(sem[0].high - sem[0].center).toBeCloseTo(1, 12) // √2 / √2
    expect(sem[1].center - sem[1].low).toBeCloseTo(Math.sqrt(28 / 3) / Math.sqrt(3), 12)
    const minmax = aggregateRuns([A, B, C], { band: 'minmax' })
    expect(minmax.map((row) => [row.low, row.high])).toEqual([
      [1, 3],
      [3, 9],
      [5, 7],
    ])
  })

  it('median of an odd and an even count', () => {
    const rows = aggregateRuns([A, B, C], { aggregate: 'median', band: 'minmax' })
    expect(pick(rows, 'center')).toEqual([2, 5, 6])
    const std = aggregateRuns([A, B, C], { aggregate: 'median', band: 'std' })
    expect(std[1].center).toBe(5)
    expect(std[1].high - 5).toBeCloseTo(Math.sqrt(28 / 3), 12)
  })

  it('a group of one run is that run with a band of no width; no finite point: no curve', () => {
    const rows = aggregateRuns([A], { band: 'std' })
    expect(rows.map((row) => [row.step, row.center, row.low, row.high])).toEqual([
      [0, 1, 1, 1],
      [10, 3, 3, 3],
      [20, 5, 5, 5],
    ])
    expect(aggregateRuns([[[1, NaN]], []])).toEqual([])
    expect(aggregateRuns([])).toEqual([])
  })
})

describe('grouping runs', () => {
  const RUNS = ['./adam-lr0.1-seed1', './adam-lr0.1-seed2', './sgd-lr0.1-seed1', './sgd-lr0.01-seed3']

  it('by a regular expression: without a capture group the matches are stripped', () => {
    const groups = groupRuns(RUNS, { kind: 'regex', name: '-seed\\d+' })
    expect(groups).toEqual([
      { key: './adam-lr0.1', runs: ['./adam-lr0.1-seed1', './adam-lr0.1-seed2'] },
      { key: './sgd-lr0.1', runs: ['./sgd-lr0.1-seed1'] },
      { key: './sgd-lr0.01', runs: ['./sgd-lr0.01-seed3'] },
    ])
  })

  it('by a regular expression: with capture groups the captures are the key', () => {
    expect(
      groupRuns(RUNS, { kind: 'regex', name: 'lr([\\d.]+)' }).map((group) => [group.key, group.runs.length]),
    ).toEqual([
      ['0.1', 3],
      ['0.01', 1],
    ])
    expect(regexKey('./x-seed1', /(adam|sgd)-(lr[\d.]+)/)).toBe('./x-seed1')
    expect(regexKey('./adam-lr0.1', /(adam|sgd)-(lr[\d.]+)/)).toBe('adam/lr0.1')
    // An invalid pattern groups nothing: each run is its own group.
    expect(groupRuns(RUNS, { kind: 'regex', name: '(' })).toHaveLength(4)
  })

  it('by a hyper-parameter and by whether a run holds a tag', () => {
    const hparams = { './adam-lr0.1-seed1': { optimizer: 'Adam' }, './sgd-lr0.1-seed1': { optimizer: 'SGD' } }
    const byOptimizer = groupRuns(RUNS, { kind: 'hparam', name: 'optimizer' }, { hparams: (run) => hparams[run] })
    expect(byOptimizer.map((group) => [group.key, group.runs])).toEqual([
      ['Adam', ['./adam-lr0.1-seed1']],
      ['', ['./adam-lr0.1-seed2', './sgd-lr0.01-seed3']],
      ['SGD', ['./sgd-lr0.1-seed1']],
    ])
    const byTag = groupRuns(
      RUNS,
      { kind: 'tag', name: 'acc' },
      { hasTag: (run, tag) => tag === 'acc' && run.includes('sgd') },
    )
    expect(byTag.map((group) => [group.key, group.runs.length])).toEqual([
      ['no', 2],
      ['yes', 2],
    ])
  })

  it('reads and writes the URL value', () => {
    expect(parseGroupBy('hparam:learning_rate')).toEqual({ kind: 'hparam', name: 'learning_rate' })
    expect(parseGroupBy('regex:seed\\d+:x')).toEqual({ kind: 'regex', name: 'seed\\d+:x' })
    expect(parseGroupBy('other:x')).toBeNull()
    expect(parseGroupBy(undefined)).toBeNull()
    expect(groupByToQuery({ kind: 'tag', name: 'acc' })).toBe('tag:acc')
    expect(groupByToQuery(null)).toBeUndefined()
  })
})
