import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError, cancelPageRequests, get, isCancel, post } from '@/api/http.js'

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
