import { describe, expect, it } from 'vitest'
import { createAppI18n, loadPageMessages, messages as coreMessages } from '@/locales/index.js'
import { messages as pageMessages } from '@/locales/pages.js'
import { messageCompiler } from '@/locales/messageCompiler.js'

// Every message: the first load's and the other pages' (loaded later in the app).
const messages = Object.fromEntries(
  Object.keys(coreMessages).map((locale) => [locale, { ...coreMessages[locale], ...pageMessages[locale] }]),
)

function flatten(tree, prefix = '') {
  return Object.entries(tree).flatMap(([key, value]) =>
    value && typeof value === 'object' ? flatten(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  )
}

// What vue-i18n makes of our messages: placeholders replaced by the named values, and for
// "a | b" the first case for a count of 1 and the second otherwise ("a | b | c": 0, 1, many).
function expected(text, values, count) {
  const cases = text.split('|').map((item) => item.trim())
  let chosen = cases[0]
  if (cases.length === 2) chosen = cases[count === 1 ? 0 : 1]
  if (cases.length === 3) chosen = cases[Math.min(count, 2)]
  return chosen.replace(/\{(\w+)\}/g, (_, name) => String(values[name]))
}

describe('messageCompiler', () => {
  it('renders every message of both locales as vue-i18n does', async () => {
    for (const locale of Object.keys(messages)) {
      const i18n = createAppI18n(locale)
      await loadPageMessages(i18n)
      const { t } = i18n.global
      for (const [key, text] of flatten(messages[locale])) {
        const names = [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1])
        const values = Object.fromEntries(names.map((name) => [name, `<${name}>`]))
        for (const count of [1, 5]) {
          const withCount = { ...values, count }
          const isPlural = text.includes('|')
          const got = isPlural ? t(key, withCount, count) : t(key, values)
          expect(got, `${locale} ${key}`).toBe(expected(text, isPlural ? withCount : values, count))
        }
      }
    }
  })

  it('keeps text without placeholders as it is, numbers and missing values included', () => {
    const ctx = {
      normalize: (parts) => parts.join(''),
      interpolate: (value) => (value == null ? '' : String(value)),
      named: (name) => ({ n: 0, path: './a' })[name],
      plural: (cases) => cases[0],
    }
    expect(messageCompiler('no {placeholder} braces {}')(ctx)).toBe('no  braces {}')
    expect(messageCompiler('{path} has {n} steps')(ctx)).toBe('./a has 0 steps')
    expect(messageCompiler('one {n} | many {n}')(ctx)).toBe('one 0')
    expect(messageCompiler('plain')(ctx)).toBe('plain')
    expect(messageCompiler('plain')).toBe(messageCompiler('plain'))
  })
})
