import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError, askEarly, cancelPageRequests, get, isCancel, post } from '@/api/http.js'

// fetch is the browser's; here it answers with real Response objects, and records the requests.
function answering(respond) {
  const calls = []
  vi.stubGlobal('fetch', async (url, init) => {
    calls.push({ url, init })
    return respond(url, init)
  })
  return calls
}

afterEach(() => vi.unstubAllGlobals())

describe('get/post', () => {
  it('sends the query string the API expects and parses lenient JSON', async () => {
    const calls = answering(() => new Response('{"value": NaN, "values": [Infinity, 1]}', { status: 200 }))
    const body = await get('datavisual/scalars', { train_id: ['./a', './b'], tag: 'loss (1)', skip: undefined })
    expect(body).toEqual({ value: 'NaN', values: ['Infinity', 1] })
    expect(calls[0].url).toBe('v1/mindinsight/datavisual/scalars?train_id=.%2Fa&train_id=.%2Fb&tag=loss%20%281%29')
    expect(calls[0].init.method).toBe('GET')
    expect(calls[0].init.body).toBeUndefined()
  })

  it('posts JSON bodies', async () => {
    const calls = answering(() => new Response('{}', { status: 200 }))
    await post('datavisual/train-job-caches', { train_ids: ['./a'] })
    expect(calls[0].url).toBe('v1/mindinsight/datavisual/train-job-caches')
    expect(calls[0].init.method).toBe('POST')
    expect(JSON.parse(calls[0].init.body)).toEqual({ train_ids: ['./a'] })
    expect(calls[0].init.headers['Content-Type']).toBe('application/json')
  })

  it("turns the API's error JSON into an ApiError with code and status", async () => {
    answering(() => new Response('{"error_code": "50545005", "error_msg": "Train job is not exist."}', { status: 400 }))
    const error = await get('datavisual/plugins', { train_id: './x' }).catch((e) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ code: '50545005', status: 400, message: 'Train job is not exist.', network: false })
  })

  it('keeps only the status of an answer that is not the API JSON', async () => {
    answering(() => new Response('<html>Bad gateway</html>', { status: 502 }))
    const error = await get('ui-config').catch((e) => e)
    expect(error).toMatchObject({ code: null, status: 502, message: '', network: false })
  })

  it('reports an unreachable server as a network error', async () => {
    answering(() => Promise.reject(new TypeError('Failed to fetch')))
    const error = await get('ui-config').catch((e) => e)
    expect(error).toMatchObject({ network: true, status: null })
    expect(isCancel(error)).toBe(false)
  })
})

describe('cancellation', () => {
  // Answers only when the request is aborted, as a real fetch does.
  function pendingUntilAborted() {
    return answering(
      (url, init) =>
        new Promise((resolve, reject) => {
          init.signal.addEventListener('abort', () => reject(init.signal.reason))
        }),
    )
  }

  it("cancels the page's requests on a route change, and not later ones", async () => {
    pendingUntilAborted()
    const pending = get('datavisual/train-jobs').catch((e) => e)
    cancelPageRequests()
    expect(isCancel(await pending)).toBe(true)

    answering(() => new Response('{"ok": true}', { status: 200 }))
    expect(await get('datavisual/train-jobs')).toEqual({ ok: true })
  })

  it("leaves a request with the caller's own signal alone and cancels it with that signal", async () => {
    const calls = pendingUntilAborted()
    const own = new AbortController()
    const pending = get('datavisual/plugins', {}, { signal: own.signal }).catch((e) => e)
    cancelPageRequests()
    await Promise.resolve()
    expect(calls[0].init.signal.aborted).toBe(false)
    own.abort()
    expect(isCancel(await pending)).toBe(true)
  })
})

describe('askEarly', () => {
  it("gives its answer to the page's first identical get, which asks nothing more", async () => {
    let answers = 0
    const calls = answering(() => new Response(`{"n": ${++answers}}`, { status: 200 }))
    askEarly(() => get('datavisual/train-jobs', { offset: 0, limit: 100, query: undefined }))
    expect(calls).toHaveLength(1)
    expect(await get('datavisual/train-jobs', { offset: 0, limit: 100, train_id: undefined })).toEqual({ n: 1 })
    // Taken once: the next get (a refresh) asks the server again.
    expect(await get('datavisual/train-jobs', { offset: 0, limit: 100 })).toEqual({ n: 2 })
    expect(calls).toHaveLength(2)
  })

  it('keeps a post for the same address and body only', async () => {
    let answers = 0
    const calls = answering(() => new Response(`{"n": ${++answers}}`, { status: 200 }))
    askEarly(() => post('lineagemgr/lineages', { lineage_type: { in: ['model'] }, limit: 100, offset: 0 }))
    expect(await post('lineagemgr/lineages', { lineage_type: { in: ['dataset'] }, limit: 100, offset: 0 })).toEqual({
      n: 2,
    })
    expect(await post('lineagemgr/lineages', { lineage_type: { in: ['model'] }, limit: 100, offset: 0 })).toEqual({
      n: 1,
    })
    expect(calls).toHaveLength(2)
  })

  it('is not taken by another address, after the page is left, or once stale', async () => {
    const calls = answering(() => new Response('{}', { status: 200 }))
    askEarly(() => get('datavisual/train-jobs', { offset: 0, limit: 100 }))
    await get('datavisual/train-jobs', { offset: 0, limit: 20 })
    expect(calls).toHaveLength(2)
    cancelPageRequests()
    await get('datavisual/train-jobs', { offset: 0, limit: 100 })
    expect(calls).toHaveLength(3)

    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      askEarly(() => get('datavisual/plugins', { train_id: './a' }))
      vi.setSystemTime(Date.now() + 60_000) // a minute later the job may have changed
      await get('datavisual/plugins', { train_id: './a' })
      expect(calls).toHaveLength(5)
    } finally {
      vi.useRealTimers()
    }
  })

  it('hands a failure to the page that takes it, and one nobody takes is no unhandled error', async () => {
    answering(() => new Response('{"error_code": "50545005", "error_msg": "no"}', { status: 400 }))
    askEarly(() => get('datavisual/train-jobs', { offset: 0, limit: 7 }))
    const error = await get('datavisual/train-jobs', { offset: 0, limit: 7 }).catch((e) => e)
    expect(error).toMatchObject({ code: '50545005', status: 400 })
    askEarly(() => get('datavisual/train-jobs', { offset: 0, limit: 8 }))
    await new Promise((resolve) => setTimeout(resolve, 10))
    cancelPageRequests()
  })
})
