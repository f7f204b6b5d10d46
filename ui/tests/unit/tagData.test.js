import { effectScope, nextTick, ref } from 'vue'
import { describe, expect, it } from 'vitest'
import { deferred } from './deferred.js'
import { useTagData, useTagSteps } from '@/components/pertag/tagData.js'

// Lets pending promise callbacks and watchers run.
async function settle() {
  for (let i = 0; i < 5; i += 1) await nextTick()
}

describe('useTagData', () => {
  it('reads at once and again when an input moves, the newest answer winning', async () => {
    const revision = ref(0)
    const answers = [deferred(), deferred()]
    let calls = 0
    const scope = effectScope()
    const tag = scope.run(() =>
      useTagData(
        () => [revision.value],
        () => answers[calls++].promise,
      ),
    )
    expect(calls).toBe(1)
    revision.value = 1
    await settle()
    expect(calls).toBe(2)
    answers[1].resolve('new')
    answers[0].resolve('old')
    await settle()
    expect(tag.data.value).toBe('new')
    expect(tag.loaded.value).toBe(true)
    scope.stop()
  })

  it('keeps the data shown when a re-read fails, and shows an error only while nothing was read', async () => {
    const revision = ref(0)
    const outcomes = [Promise.reject(new Error('first')), Promise.resolve([1]), Promise.reject(new Error('later'))]
    let calls = 0
    const scope = effectScope()
    const tag = scope.run(() =>
      useTagData(
        () => [revision.value],
        () => outcomes[calls++],
      ),
    )
    await settle()
    expect(tag.error.value?.message).toBe('first')
    revision.value = 1
    await settle()
    expect(tag.data.value).toEqual([1])
    expect(tag.error.value).toBeNull()
    revision.value = 2
    await settle()
    expect(calls).toBe(3)
    expect(tag.data.value).toEqual([1])
    expect(tag.error.value).toBeNull()
    scope.stop()
  })

  it('starts no read while `when` is false, and one when it turns true', async () => {
    const shown = ref(false)
    let calls = 0
    const scope = effectScope()
    const tag = scope.run(() =>
      useTagData(
        () => ['job', 'tag'],
        async () => ++calls,
        { when: () => shown.value },
      ),
    )
    await settle()
    expect(calls).toBe(0)
    shown.value = true
    await settle()
    expect(calls).toBe(1)
    expect(tag.data.value).toBe(1)
    scope.stop()
  })

  it('lets no answer land after the card is gone', async () => {
    const answer = deferred()
    const scope = effectScope()
    const tag = scope.run(() =>
      useTagData(
        () => [],
        () => answer.promise,
      ),
    )
    scope.stop()
    answer.resolve('late')
    await settle()
    expect(tag.data.value).toBeNull()
    expect(tag.loaded.value).toBe(false)
  })
})

describe('useTagSteps', () => {
  const listing = (...steps) => steps.map((step) => ({ step, wall_time: step / 10 }))

  it('starts at the latest step and, left there, follows new steps', async () => {
    const revision = ref(0)
    const lists = [listing(30, 10, 20), listing(10, 20, 30, 40)]
    const scope = effectScope()
    const steps = scope.run(() =>
      useTagSteps(
        () => [revision.value],
        async () => lists[revision.value],
      ),
    )
    await settle()
    expect(steps.entries.value.map((entry) => entry.step)).toEqual([10, 20, 30])
    expect(steps.current.value.step).toBe(30)
    revision.value = 1
    await settle()
    expect(steps.current.value.step).toBe(40)
    scope.stop()
  })

  it('keeps a chosen step, or moves to the nearest one when it was dropped', async () => {
    const revision = ref(0)
    const lists = [listing(10, 20, 30), listing(10, 20, 30, 40), listing(10, 24, 40)]
    const scope = effectScope()
    const steps = scope.run(() =>
      useTagSteps(
        () => [revision.value],
        async () => lists[revision.value],
      ),
    )
    await settle()
    steps.index.value = 1 // step 20
    revision.value = 1
    await settle()
    expect(steps.current.value.step).toBe(20)
    revision.value = 2
    await settle()
    expect(steps.current.value.step).toBe(24)
    scope.stop()
  })
})
