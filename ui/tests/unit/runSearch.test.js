import { describe, expect, it } from 'vitest'
import { nameContainsQuery } from '@/api/datavisual.js'
import { namedRuns } from '@/lib/compareRuns.js'

describe('nameContainsQuery', () => {
  it('asks the server for the train ids containing the text, case-insensitive', () => {
    expect(nameContainsQuery('job_0007')).toBe('name ~ "(?i)job_0007"')
  })

  it('matches regular-expression characters and quotes as themselves', () => {
    // The pattern escapes `.` and `\`; the query's string literal then escapes `\` and `"`.
    expect(nameContainsQuery('a.b"c\\d')).toBe('name ~ "(?i)a\\\\.b\\"c\\\\\\\\d"')
  })
})

describe('namedRuns', () => {
  it('lists the trainings the URL names, none without a choice', () => {
    expect(namedRuns(undefined)).toEqual([])
    expect(namedRuns('./a')).toEqual(['./a'])
  })
})
