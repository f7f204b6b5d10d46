import { describe, expect, it } from 'vitest'
import { jobTagLists } from '@/composables/jobData.js'

describe('jobTagLists', () => {
  const item = (status) => ({ cache_status: status, plugins: { scalar: ['listed'] } })
  const answer = { plugins: { scalar: ['answered'] } }

  it("takes a CACHED job's own tag lists, complete then", () => {
    expect(jobTagLists(item('CACHED'), answer)).toEqual({ scalar: ['listed'] })
  })

  it('takes the plugins answer while the job is loading or not cached', () => {
    expect(jobTagLists(item('CACHING'), answer)).toEqual({ scalar: ['answered'] })
    expect(jobTagLists(item('NOT_IN_CACHE'), answer)).toEqual({ scalar: ['answered'] })
    expect(jobTagLists(null, answer)).toEqual({ scalar: ['answered'] })
  })

  it('gives no tags for a missing or malformed answer', () => {
    expect(jobTagLists(item('CACHING'), null)).toEqual({})
    expect(jobTagLists(null, { plugins: 'nonsense' })).toEqual({})
  })
})
