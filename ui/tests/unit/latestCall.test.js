import { effectScope } from 'vue'
import { describe, expect, it } from 'vitest'
import { deferred } from './deferred.js'
import { useLatestCall } from '@/composables/latestCall.js'

describe('useLatestCall', () => {
  it('lets only the newest of overlapping calls land', async () => {
    const latest = useLatestCall()
    const slow = deferred()
    const fast = deferred()
    const first = latest.run(() => slow.promise)
    const second = latest.run(() => fast.promise)
    fast.resolve('new')
    slow.resolve('old')
    expect(await second).toEqual({ value: 'new' })
    expect(await first).toBeNull()
  })

  it('hands errors of the current call over, but not cancellations', async () => {
    const latest = useLatestCall()
    const failure = new Error('boom')
    expect(await latest.run(() => Promise.reject(failure))).toEqual({ error: failure })
    const abort = Object.assign(new Error('aborted'), { name: 'AbortError' })
    expect(await latest.run(() => Promise.reject(abort))).toBeNull()
  })

  it('drops the call under way when its scope ends, and says when it is busy', async () => {
    const scope = effectScope()
    const latest = scope.run(() => useLatestCall())
    const pending = deferred()
    const call = latest.run(() => pending.promise)
    expect(latest.busy).toBe(true)
    scope.stop()
    pending.resolve('late')
    expect(await call).toBeNull()
    expect(latest.busy).toBe(false)
  })

  it('keeps a multi-step call current until a newer one begins', () => {
    const latest = useLatestCall()
    const call = latest.begin()
    expect(call.current).toBe(true)
    latest.begin()
    expect(call.current).toBe(false)
  })
})
