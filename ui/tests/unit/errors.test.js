import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { messages as coreMessages } from '@/locales/index.js'
import { messages as pageMessages } from '@/locales/pages.js'
import { describeError, serverDetail } from '@/lib/errors.js'

// Every message: the first load's and the other pages' (loaded later in the app).
const messages = Object.fromEntries(
  Object.keys(coreMessages).map((locale) => [locale, { ...coreMessages[locale], ...pageMessages[locale] }]),
)

// Every error code the server defines (mindinsight/errors.py). tests/ut/test_ui_error_codes.py
// keeps this list equal to the Python module, so a new server error fails one of the two tests
// until it has a message in every language.
const SERVER_CODES = JSON.parse(readFileSync(new URL('./error-codes.json', import.meta.url), 'utf8'))

function translator(locale) {
  const table = messages[locale].errors
  const t = (key, values) => {
    if (key.startsWith('errors.')) return table[key.slice('errors.'.length)]
    return `${key}${values ? JSON.stringify(values) : ''}`
  }
  const te = (key) => key.startsWith('errors.') && key.slice('errors.'.length) in table
  return { t, te }
}

describe('server error codes', () => {
  it('are listed', () => {
    expect(SERVER_CODES.length).toBeGreaterThan(20)
    for (const code of SERVER_CODES) expect(code).toMatch(/^[0-9A-F]{8}$/)
  })

  it.each(['en-US', 'zh-CN'])('each have a message in %s', (locale) => {
    const table = messages[locale].errors
    expect(SERVER_CODES.filter((code) => !(typeof table[code] === 'string' && table[code].trim()))).toEqual([])
  })

  it('have no message for a code the server does not define', () => {
    expect(Object.keys(messages['en-US'].errors).filter((code) => !SERVER_CODES.includes(code))).toEqual([])
  })
})

describe('describeError', () => {
  const notFound = { code: '50545005', message: 'Train job is not exist. Detail: ./x', status: 400 }

  it('translates a known code and keeps the server text as the detail', () => {
    const { t, te } = translator('zh-CN')
    const shown = describeError(notFound, t, te)
    expect(shown).toBe(messages['zh-CN'].errors['50545005'])
    expect(serverDetail(notFound, shown)).toBe('Train job is not exist. Detail: ./x')
  })

  it("falls back to the server's message for an unknown code", () => {
    const { t, te } = translator('zh-CN')
    const error = { code: '5054FFFF', message: 'Something new.', status: 400 }
    expect(describeError(error, t, te)).toBe('Something new.')
    expect(serverDetail(error, 'Something new.')).toBeNull()
  })

  it('describes failures without a server answer', () => {
    const { t, te } = translator('en-US')
    expect(describeError({ network: true, message: 'Network Error' }, t, te)).toBe('common.networkError')
    expect(describeError({ status: 502, message: '' }, t, te)).toBe('common.httpStatus{"status":502}')
    expect(describeError({}, t, te)).toBe('common.requestFailed')
  })
})
