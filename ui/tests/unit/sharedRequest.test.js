import { describe, expect, it } from 'vitest'
import { sharedRequest } from '../../src/lib/sharedRequest.js'

describe('sharedRequest', () => {
  it('sends once per key in a row and shares the answer', async () => {
    const shared = sharedRequest()
    let sent = 0
    const send = async () => ++sent
    const first = shared.request('a', send)
    const second = shared.request('a', send)
    expect(second).toBe(first)
    expect(await second).toBe(1)
    expect(await shared.request('a', send)).toBe(1)
    expect(sent).toBe(1)
  })

  it('sends again for another key, also when an earlier key comes back', async () => {
    const shared = sharedRequest()
    const keys = []
    const send = (key) => () => keys.push(key)
    await shared.request('a', send('a'))
    await shared.request('b', send('b'))
    await shared.request('a', send('a'))
    expect(keys).toEqual(['a', 'b', 'a'])
  })

  it('tells whether an answer is still wanted', () => {
    const shared = sharedRequest()
    shared.request('a', async () => {})
    expect(shared.isLatest('a')).toBe(true)
    shared.request('b', async () => {})
    expect(shared.isLatest('a')).toBe(false)
    expect(shared.isLatest('b')).toBe(true)
  })

  it('passes a failure to every caller of the key and sends at once', async () => {
    const shared = sharedRequest()
    let called = false
    const failing = shared.request('a', () => {
      called = true
      throw new Error('down')
    })
    expect(called).toBe(true)
    await expect(failing).rejects.toThrow('down')
    await expect(shared.request('a', async () => 'unused')).rejects.toThrow('down')
  })
})
