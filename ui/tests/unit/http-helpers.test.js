import { describe, expect, it } from 'vitest'
import { parseJsonLenient, patchNonFiniteLiterals } from '@/lib/json.js'
import { serializeParams } from '@/lib/params.js'
import { formatAxisValue, formatValue, formatWallTime, summarizeSteps } from '@/lib/format.js'
import { forEachLimit } from '@/lib/pool.js'

describe('lenient JSON', () => {
  it('parses plain JSON unchanged', () => {
    expect(parseJsonLenient('{"a": [1, null, "NaN"]}')).toEqual({ a: [1, null, 'NaN'] })
  })

  it('quotes bare NaN/Infinity literals but not text inside strings', () => {
    const text = '{"v": [NaN, Infinity, -Infinity, 1], "s": "NaN and Infinity \\" NaN"}'
    expect(parseJsonLenient(text)).toEqual({ v: ['NaN', 'Infinity', '-Infinity', 1], s: 'NaN and Infinity " NaN' })
    expect(patchNonFiniteLiterals('"x"')).toBe('"x"')
  })

  it('still rejects broken JSON', () => {
    expect(() => parseJsonLenient('{"a": ')).toThrow()
  })
})

describe('query parameters', () => {
  it('encodes every value fully, repeats array keys and drops null/undefined', () => {
    expect(serializeParams({ train_id: './run 1', tag: "a/b(c)!*'" })).toBe(
      'train_id=.%2Frun%201&tag=a%2Fb%28c%29%21%2A%27',
    )
    expect(serializeParams({ train_id: ['./a', './b'], tag: ['x,y'] })).toBe('train_id=.%2Fa&train_id=.%2Fb&tag=x%2Cy')
    expect(serializeParams({ offset: 0, limit: 20, train_id: undefined, x: null })).toBe('offset=0&limit=20')
    expect(serializeParams({ tag: 'a+b&c=d#e' })).toBe('tag=a%2Bb%26c%3Dd%23e')
  })
})

describe('formatting', () => {
  it('keeps axis labels short', () => {
    expect(formatAxisValue(0)).toBe('0')
    expect(formatAxisValue(0.0125)).toBe('0.0125')
    expect(formatAxisValue(2.34567)).toBe('2.346')
    expect(formatAxisValue(123456)).toBe('1.23e+5')
    expect(formatAxisValue(0.00001)).toBe('1e-5')
    expect(formatValue(0.1 + 0.2)).toBe('0.3')
  })

  it('formats wall time like the server and summarizes step lists', () => {
    expect(formatWallTime(Date.UTC(2024, 0, 2, 3, 4, 5) / 1000)).toMatch(/^2024-01-0[12] \d\d:04:05$/)
    expect(formatWallTime('x')).toBe('')
    expect(summarizeSteps([1, 2, 3], 5)).toBe('1, 2, 3')
    expect(summarizeSteps([1, 2, 3, 4], 2)).toBe('1, 2, … (+2)')
  })
})

describe('request pool', () => {
  it('runs every item with bounded concurrency', async () => {
    let running = 0
    let peak = 0
    const done = []
    await forEachLimit([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      running += 1
      peak = Math.max(peak, running)
      await new Promise((resolve) => setTimeout(resolve, 5))
      done.push(item)
      running -= 1
    })
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(peak).toBe(3)
    await forEachLimit([], 3, async () => {
      throw new Error('not called')
    })
  })
})

describe('error text', () => {
  const t = (key, values) => `${key}${values ? JSON.stringify(values) : ''}`

  it("prefers the server's error_msg, then network, HTTP status, generic", async () => {
    const { describeError } = await import('@/lib/errors.js')
    const { ApiError } = await import('@/api/http.js')
    expect(describeError(new ApiError('Train job is not exist.', { code: '50545005', status: 400 }), t)).toBe(
      'Train job is not exist.',
    )
    expect(describeError(new ApiError('socket hang up', { network: true }), t)).toBe('common.networkError')
    expect(describeError(new ApiError('', { status: 414 }), t)).toBe('common.httpStatus{"status":414}')
    expect(describeError({}, t)).toBe('common.requestFailed')
  })
})
