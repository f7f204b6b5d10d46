import { describe, expect, it } from 'vitest'
import { profilingRoute } from '@/lib/profilingRoute.js'

const JOB = { train_id: './run1', relative_path: './run1', profiler_dir: 'profiler', graph_mode: 'graph' }

describe('profilingRoute', () => {
  it('gives no link to a job without a profiler directory', () => {
    expect(profilingRoute({ ...JOB, profiler_dir: null, profiler_type: '' })).toBeNull()
    expect(profilingRoute(null)).toBeNull()
  })

  it('opens the page of the profiler type with the original query names', () => {
    const query = { dir: 'profiler', id: './run1', path: './run1', graphMode: 'graph' }
    expect(profilingRoute({ ...JOB, profiler_type: 'ascend' })).toEqual({ path: '/profiling', query })
    expect(profilingRoute({ ...JOB, profiler_type: 'gpu' })).toEqual({ path: '/profiling-gpu', query })
    expect(profilingRoute({ ...JOB, profiler_type: 'cpu' }).path).toBe('/profiling-cpu')
    expect(profilingRoute({ ...JOB, graph_mode: undefined, profiler_type: 'ascend' }).query).not.toHaveProperty(
      'graphMode',
    )
  })

  it('gives no link while the app has no page at that path', () => {
    const hasPage = (path) => path === '/profiling'
    expect(profilingRoute({ ...JOB, profiler_type: 'ascend' }, hasPage).path).toBe('/profiling')
    expect(profilingRoute({ ...JOB, profiler_type: 'gpu' }, hasPage)).toBeNull()
  })
})
