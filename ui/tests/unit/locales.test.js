import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { messages as coreMessages } from '@/locales/index.js'
import { messages as pageMessages } from '@/locales/pages.js'

// Every message: the first load's and the other pages' (loaded later in the app).
const messages = Object.fromEntries(
  Object.keys(coreMessages).map((locale) => [locale, { ...coreMessages[locale], ...pageMessages[locale] }]),
)

function flatten(messages, prefix = '') {
  return Object.entries(messages).flatMap(([key, value]) =>
    value && typeof value === 'object' ? flatten(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  )
}

function placeholders(text) {
  return [...String(text).matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()
}

const en = Object.fromEntries(flatten(messages['en-US']))
const zh = Object.fromEntries(flatten(messages['zh-CN']))

describe('locales', () => {
  it('have the same keys in en-US and zh-CN', () => {
    expect(Object.keys(zh).filter((key) => !(key in en))).toEqual([])
    expect(Object.keys(en).filter((key) => !(key in zh))).toEqual([])
  })

  it('have no empty message and the same placeholders in both languages', () => {
    for (const [key, text] of Object.entries(en)) {
      expect(typeof text === 'string' && text.trim().length > 0, key).toBe(true)
      expect(typeof zh[key] === 'string' && zh[key].trim().length > 0, key).toBe(true)
      const zhPlaceholders = [...new Set(placeholders(zh[key]))]
      expect(zhPlaceholders, key).toEqual([...new Set(placeholders(text))])
    }
  })

  it('cover every key the source code uses', () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '../../src')
    const files = []
    const walk = (dir) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) walk(path)
        else if (/\.(vue|js)$/.test(entry.name)) files.push(path)
      }
    }
    walk(root)
    const used = new Set()
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\$?\bt\(\s*'([\w.]+)'/g)) used.add(match[1])
    }
    expect(used.size).toBeGreaterThan(20)
    expect([...used].filter((key) => !(key in en))).toEqual([])
  })
})
