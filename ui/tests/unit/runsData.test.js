import { describe, expect, it } from 'vitest'
import { readStatus } from '@/composables/runsData.js'

describe('readStatus', () => {
  it("is a job's cache status when the server has files of it to load", () => {
    expect(readStatus({ cache_status: 'NOT_IN_CACHE', summary_files: 2, graph_files: 0 })).toBe('NOT_IN_CACHE')
    expect(readStatus({ cache_status: 'CACHING', summary_files: 0, graph_files: 1 })).toBe('CACHING')
  })

  it('counts a job without event or graph files as read: the server never loads it', () => {
    expect(readStatus({ cache_status: 'NOT_IN_CACHE', summary_files: 0, graph_files: 0 })).toBe('CACHED')
  })

  it('counts a job not listed (yet) as not in the cache', () => {
    expect(readStatus(undefined)).toBe('NOT_IN_CACHE')
  })
})
