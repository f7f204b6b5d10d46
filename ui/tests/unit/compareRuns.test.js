import { describe, expect, it } from 'vitest'
import { assignColors, chosenRuns, MAX_RUNS, runsToQuery, tagUnion } from '@/lib/compareRuns.js'
import { lineageDetailRows } from '@/lib/lineageDetails.js'

const ALL = ['./a', './b', './c', './d', './e', './f', './g']

describe('compared trainings', () => {
  it('defaults to the first five and reads a choice from the query in list order', () => {
    expect(chosenRuns(undefined, ALL)).toEqual(ALL.slice(0, MAX_RUNS))
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
