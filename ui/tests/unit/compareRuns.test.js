import { describe, expect, it } from 'vitest'
import {
  assignColors,
  chosenRuns,
  DEFAULT_RUNS,
  MAX_RUNS,
  runPalette,
  runsToQuery,
  tagUnion,
} from '@/lib/compareRuns.js'
import { lineageDetailRows } from '@/lib/lineageDetails.js'
import { encodeTagList } from '@/lib/tagQuery.js'

const ALL = ['./a', './b', './c', './d', './e', './f', './g']

describe('compared trainings', () => {
  it('defaults to the first five and reads a choice from the query in list order', () => {
    expect(chosenRuns(undefined, ALL)).toEqual(ALL.slice(0, DEFAULT_RUNS))
    expect(chosenRuns('./c,./a,./zz', ALL)).toEqual(['./a', './c'])
    expect(chosenRuns('', ALL)).toEqual([])
    expect(runsToQuery(ALL.slice(0, 5), ALL)).toBeUndefined()
    expect(runsToQuery(['./b'], ALL)).toBe('./b')
  })

  it('keeps each training its colour and gives a new one the lowest free colour', () => {
    const first = assignColors(['./a', './b', './c'])
    expect(first).toEqual({ './a': 0, './b': 1, './c': 2 })
    // ./a dropped: ./b and ./c keep theirs; ./d takes the freed 0.
    expect(assignColors(['./b', './c', './d'], first)).toEqual({ './b': 1, './c': 2, './d': 0 })
    // Two runs remembered with the same colour: the later one moves.
    expect(assignColors(['./a', './b'], { './a': 3, './b': 3 })).toEqual({ './a': 3, './b': 0 })
  })

  it('chooses up to 100 trainings, each with its own colour kept while others come and go', () => {
    const many = Array.from({ length: 120 }, (_, index) => `./run${index}`)
    expect(chosenRuns(encodeTagList(many), many)).toEqual(many.slice(0, MAX_RUNS))
    expect(MAX_RUNS).toBe(100)
    const colors = assignColors(many.slice(0, 100))
    expect(new Set(Object.values(colors)).size).toBe(100)
    // Dropping run0..run49 and adding 50 others: the runs kept keep their colour.
    const next = assignColors(many.slice(50, 120), colors)
    for (const run of many.slice(50, 100)) expect(next[run]).toBe(colors[run])
    expect(new Set(Object.values(next)).size).toBe(70)
  })

  it('has 100 distinct colours, the chart theme colours first', () => {
    for (const dark of [false, true]) {
      const palette = runPalette(['#00a5a7', '#6c92fa'], dark)
      expect(palette).toHaveLength(100)
      expect(new Set(palette).size).toBe(100)
      expect(palette.slice(0, 2)).toEqual(['#00a5a7', '#6c92fa'])
    }
    expect(runPalette([], true)[7]).not.toBe(runPalette([], false)[7])
  })

  it('keeps every colour it makes at 3:1 or more against the chart background', () => {
    const luminance = (hex) => {
      const linear = [1, 3, 5]
        .map((at) => parseInt(hex.slice(at, at + 2), 16) / 255)
        .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
      return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }
    const contrast = (a, b) => {
      const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x)
      return (high + 0.05) / (low + 0.05)
    }
    for (const [dark, background] of [
      [false, '#ffffff'],
      [true, '#2a2a2b'],
    ]) {
      for (const color of runPalette([], dark)) {
        expect(color).toMatch(/^#[0-9a-f]{6}$/)
        expect(contrast(color, background)).toBeGreaterThanOrEqual(3)
      }
    }
  })

  it('lists every tag of the chosen runs once', () => {
    expect(
      tagUnion([
        ['loss', 'acc'],
        ['loss', 'lr'],
      ]),
    ).toEqual(['loss', 'acc', 'lr'])
  })
})

describe('parameter details', () => {
  it('sorts fields by their shown name and expands nested groups', () => {
    const rows = lineageDetailRows({ optimizer: 'Adam', metric: { Accuracy: 0.9 }, epoch: 3 }, (key) =>
      key.toUpperCase(),
    )
    expect(rows.map((row) => row.key)).toEqual(['EPOCH', 'METRIC', 'OPTIMIZER'])
    expect(rows[1]).toEqual({
      id: 'metric',
      key: 'METRIC',
      value: '{"Accuracy":0.9}',
      children: [{ id: 'metric/Accuracy', key: 'Accuracy', value: '0.9' }],
    })
  })
})
