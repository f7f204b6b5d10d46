import { describe, expect, it } from 'vitest'
import { openedGraph } from '@/views/graph/openedGraph.js'

const LISTS = { graph: ['a.pb', 'b.pb'], optimized_graph: ['b.pb (optimized)'] }

describe('openedGraph', () => {
  it("opens the job's first graph file as recorded", () => {
    expect(openedGraph({}, LISTS)).toEqual({ file: 'a.pb', optimized: false, tag: 'a.pb', mode: 'normal' })
  })

  it('opens the file the query names, optimized when asked and recorded', () => {
    expect(openedGraph({ tag: 'b.pb', optimized: '1' }, LISTS)).toEqual({
      file: 'b.pb',
      optimized: true,
      tag: 'b.pb (optimized)',
      mode: 'optimize',
    })
    expect(openedGraph({ tag: 'a.pb', optimized: '1' }, LISTS).tag).toBe('a.pb')
  })

  it('falls back to the first file for an unknown one, and to none without graphs', () => {
    expect(openedGraph({ tag: 'gone.pb' }, LISTS).file).toBe('a.pb')
    expect(openedGraph({ tag: ['a.pb'] }, LISTS).file).toBe('a.pb')
    expect(openedGraph({}, {})).toEqual({ file: '', optimized: false, tag: '', mode: 'normal' })
  })
})
