import { effectScope, nextTick, reactive } from 'vue'
import { describe, expect, it } from 'vitest'
import { deferred } from './deferred.js'
import { useCardData } from '@/composables/cardData.js'

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** A card on job `run` whose `read(tag)` answers from `answers` (tag -> deferred), logging calls. */
function mountCard(options, plugins = { histogram: ['a', 'b'] }) {
  const props = reactive({ trainId: 'run', plugins, revision: 1 })
  const calls = []
  const answers = {}
  const read = (what) => {
    calls.push(what)
    answers[what] = deferred()
    return answers[what].promise
  }
  const scope = effectScope()
  const card = scope.run(() => useCardData(props, { kind: 'histogram', read, ...options }))
  return { props, calls, answers, card, scope }
}

describe('useCardData', () => {
  it('reads the shown tag once per dashboard revision and keeps it while the job has it', async () => {
    const { props, calls, answers, card } = mountCard()
    expect(calls).toEqual(['a'])
    expect(card.state.value).toBe('loading')
    answers.a.resolve(['first'])
    await settle()
    expect(card.state.value).toBe('ready')
    expect(card.shown.value).toBe('a')
    expect(card.data.value).toEqual(['first'])

    props.plugins = { histogram: ['b', 'a'] }
    props.revision = 2
    await nextTick()
    expect(calls).toEqual(['a', 'a'])
    answers.a.resolve(['second'])
    await settle()
    expect(card.data.value).toEqual(['second'])

    card.show('a') // the same tag in the same revision: nothing to read
    expect(calls).toEqual(['a', 'a'])
  })

  it('lets only the newest read land, and drops the data of another tag that failed', async () => {
    const { calls, answers, card } = mountCard()
    answers.a.resolve(['a-data'])
    await settle()
    card.show('b')
    const slowB = answers.b
    card.show('a-again')
    answers['a-again'].resolve(['newest'])
    slowB.resolve(['stale'])
    await settle()
    expect(calls).toEqual(['a', 'b', 'a-again'])
    expect(card.data.value).toEqual(['newest'])
    expect(card.shown.value).toBe('a-again')

    card.show('b')
    answers.b.reject(new Error('boom'))
    await settle()
    expect(card.error.value?.message).toBe('boom')
    expect(card.data.value).toBeNull()
    expect(card.state.value).toBe('error')
    expect(card.frame.value).toEqual({ state: 'error', error: card.error.value })
  })

  it('keeps equal data as it is, and empties the card for another job', async () => {
    const kept = ['kept']
    const { props, answers, card } = mountCard({ same: (drawn, read) => drawn[0] === read[0] })
    answers.a.resolve(kept)
    await settle()
    props.revision = 2
    await nextTick()
    answers.a.resolve(['kept'])
    await settle()
    expect(card.data.value).toBe(kept)

    props.trainId = 'other'
    props.revision = 3
    await nextTick()
    expect(card.data.value).toBeNull()
    expect(card.state.value).toBe('loading')
  })

  it('says empty without tags, and with everyRevision off reads once per job and tag', async () => {
    const empty = mountCard({}, {})
    expect(empty.calls).toEqual([])
    expect(empty.card.state.value).toBe('empty')

    const { props, calls, answers } = mountCard({ everyRevision: false })
    answers.a.resolve(['rows'])
    await settle()
    props.revision = 2
    await nextTick()
    expect(calls).toEqual(['a'])
  })

  it('lets no answer land after the card is gone', async () => {
    const { answers, card, scope } = mountCard()
    scope.stop()
    answers.a.resolve(['late'])
    await settle()
    expect(card.data.value).toBeNull()
  })
})
