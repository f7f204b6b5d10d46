import { createPinia, setActivePinia } from 'pinia'
import { effectScope, nextTick, ref } from 'vue'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { useRead } from '@/composables/read.js'
import { usePoll } from '@/composables/refresh.js'
import { useAppStore } from '@/stores/app.js'

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

beforeEach(() => setActivePinia(createPinia()))

describe('useRead', () => {
  it('reads on every refresh and keeps an equal answer as it is', async () => {
    let answer = { rows: [1] }
    const fetch = vi.fn(async () => structuredClone(answer))
    const scope = effectScope()
    const read = scope.run(() => useRead(fetch, { refresh: true, keepEqual: true }))
    expect(read.loading.value).toBe(true)
    await settle()
    const first = read.value.value
    expect(first).toEqual({ rows: [1] })
    expect(read.loaded.value).toBe(true)

    useAppStore().requestRefresh()
    await nextTick()
    await settle()
    expect(fetch).toHaveBeenCalledTimes(2)
    expect(read.value.value).toBe(first)

    answer = { rows: [1, 2] }
    await read.read()
    expect(read.value.value).toEqual({ rows: [1, 2] })
    scope.stop()
  })

  it('reads again for another key, nothing for an empty one, and keeps the error apart', async () => {
    const key = ref('a')
    const fetch = vi.fn(async () => {
      if (key.value === 'bad') throw new Error('refused')
      return key.value
    })
    const scope = effectScope()
    const read = scope.run(() => useRead(fetch, { key: () => key.value }))
    await settle()
    expect(read.value.value).toBe('a')

    key.value = ''
    await nextTick()
    expect(read.value.value).toBeNull()
    expect(read.loaded.value).toBe(false)
    expect(fetch).toHaveBeenCalledTimes(1)

    key.value = 'bad'
    await nextTick()
    await settle()
    expect(read.error.value?.message).toBe('refused')
    expect(read.loaded.value).toBe(true)
    expect(read.value.value).toBeNull()
    scope.stop()
  })

  it('lets only the newest of overlapping reads land', async () => {
    const resolvers = []
    const fetch = () => new Promise((resolve) => resolvers.push(resolve))
    const scope = effectScope()
    const read = scope.run(() => useRead(fetch))
    const second = read.read()
    resolvers[1]('new')
    resolvers[0]('old')
    await second
    await settle()
    expect(read.value.value).toBe('new')
    scope.stop()
  })
})

describe('usePoll', () => {
  it('calls back once after the wait, moved by a later schedule, and not after stop or scope end', () => {
    vi.useFakeTimers()
    try {
      const callback = vi.fn()
      const scope = effectScope()
      const poll = scope.run(() => usePoll(callback, 1500))
      poll.schedule()
      vi.advanceTimersByTime(1000)
      poll.schedule()
      vi.advanceTimersByTime(1000)
      expect(callback).not.toHaveBeenCalled()
      vi.advanceTimersByTime(500)
      expect(callback).toHaveBeenCalledTimes(1)

      poll.schedule()
      poll.stop()
      vi.advanceTimersByTime(2000)
      poll.schedule()
      scope.stop()
      vi.advanceTimersByTime(2000)
      expect(callback).toHaveBeenCalledTimes(1)
    } finally {
      vi.useRealTimers()
    }
  })
})
