import { describe, expect, it } from 'vitest'
import { dataHealth, keepOrFirst, skippedRecords, tagsOf, unreadableFiles } from '@/lib/dashboard.js'
import { valuesNotKept } from '@/lib/valuesNotKept.js'
import { defaultTensorDims, nextTag, tensorRows } from '@/lib/dashboardCards.js'

describe('data health of a train job', () => {
  it('counts skipped records, a missing field being none', () => {
    expect(skippedRecords({ skipped_records: 3 })).toBe(3)
    expect(skippedRecords({})).toBe(0)
    expect(skippedRecords({ skipped_records: null })).toBe(0)
    expect(skippedRecords(null)).toBe(0)
  })

  it('flags a job that is not intact or skipped records, and only those', () => {
    expect(dataHealth({ is_integrity: true, skipped_records: 0 })).toEqual({ skipped: 0, damaged: false })
    expect(dataHealth({ is_integrity: true })).toEqual({ skipped: 0, damaged: false })
    expect(dataHealth({ is_integrity: false })).toEqual({ skipped: 0, damaged: true })
    expect(dataHealth({ is_integrity: true, skipped_records: 2 })).toEqual({ skipped: 2, damaged: true })
    expect(dataHealth(null)).toEqual({ skipped: 0, damaged: false })
  })

  it('lists unreadable files apart from damage', () => {
    const unreadable = [{ path: 'run/events.summary.1', reason: 'Permission denied' }]
    expect(unreadableFiles({ unreadable_files: unreadable })).toEqual(unreadable)
    expect(unreadableFiles({ unreadable_files: [{ path: 'a' }, { reason: 'x' }, null] })).toEqual([
      { path: 'a', reason: '' },
    ])
    expect(unreadableFiles({})).toEqual([])
    expect(unreadableFiles(null)).toEqual([])
    // Not intact only because of unreadable files: the list says it, not the "damaged" line.
    expect(dataHealth({ is_integrity: false, unreadable_files: unreadable })).toEqual({ skipped: 0, damaged: false })
    const both = { is_integrity: false, skipped_records: 1, unreadable_files: unreadable }
    expect(dataHealth(both)).toEqual({ skipped: 1, damaged: true })
  })

  it('reads the values not kept defensively, others (null names) kept', () => {
    const job = {
      unshown_values: [
        { plugin: 'pr_curves', tag: 'pr', count: 3 },
        { plugin: null, tag: null, count: 5 },
        { plugin: 'mesh', tag: 'm', count: 0 },
        null,
      ],
      dropped_values: [
        { plugin: 'image', tag: 'big', reason: 'image over 1 bytes', count: '2' }, // an older server: no code
        {
          plugin: 'tensor',
          tag: 't',
          reason: '1 values for dims [2]',
          reason_code: 'values_do_not_fill_dims',
          reason_args: { count: 1, dims: '[2]', odd: { nested: true }, nan: NaN },
          count: 1,
        },
        { count: -1 },
      ],
    }
    expect(valuesNotKept(job)).toEqual({
      unshown: [
        { plugin: 'pr_curves', tag: 'pr', count: 3 },
        { plugin: null, tag: null, count: 5 },
      ],
      dropped: [
        { plugin: 'image', tag: 'big', reason: 'image over 1 bytes', reasonCode: null, reasonArgs: {}, count: 2 },
        {
          plugin: 'tensor',
          tag: 't',
          reason: '1 values for dims [2]',
          reasonCode: 'values_do_not_fill_dims',
          reasonArgs: { count: 1, dims: '[2]' },
          count: 1,
        },
      ],
    })
    expect(valuesNotKept({})).toEqual({ unshown: [], dropped: [] })
    expect(valuesNotKept(null)).toEqual({ unshown: [], dropped: [] })
  })
})

describe('tag choice', () => {
  const tags = ['a/image', 'b/image', 'c/image']

  it('reads a plugin list defensively', () => {
    expect(tagsOf({ image: tags }, 'image')).toBe(tags)
    expect(tagsOf({}, 'image')).toEqual([])
    expect(tagsOf(null, 'image')).toEqual([])
  })

  it('keeps the current tag while the job has it, else takes the first', () => {
    expect(keepOrFirst(tags, 'b/image')).toBe('b/image')
    expect(keepOrFirst(tags, 'gone/image')).toBe('a/image')
    expect(keepOrFirst([], 'a/image')).toBe('')
  })

  it('switches to the next tag and wraps around', () => {
    expect(nextTag(tags, 'a/image')).toBe('b/image')
    expect(nextTag(tags, 'c/image')).toBe('a/image')
    expect(nextTag(tags, 'gone/image')).toBe('a/image')
    expect(nextTag([], 'a/image')).toBe('')
  })
})

describe('tensor slice', () => {
  it('takes index 0 on leading dimensions and the whole of the last two', () => {
    expect(defaultTensorDims([1, 6, 28, 28])).toBe('[0,0,:,:]')
    expect(defaultTensorDims([3, 4])).toBe('[:,:]')
    expect(defaultTensorDims([5])).toBe('[:]')
    expect(defaultTensorDims([])).toBe('[]')
  })

  it('shapes a slice answer into rows', () => {
    expect(
      tensorRows([
        [1, 2],
        [3, 4],
      ]),
    ).toEqual([
      [1, 2],
      [3, 4],
    ])
    expect(tensorRows([1, 'NAN'])).toEqual([[1], ['NAN']])
    expect(tensorRows(7)).toEqual([[7]])
  })
})
