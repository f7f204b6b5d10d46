import { describe, expect, it } from 'vitest'
import {
  clampInterval,
  detectLocale,
  loadAutoRefresh,
  loadTheme,
  normalizeLocale,
  parseInterval,
  saveAutoRefresh,
  saveLocale,
  saveTheme,
} from '@/lib/preferences.js'
import { brokenStorage, memoryStorage } from './storage.js'

describe('language preference', () => {
  it('prefers the saved language, then the browser languages, then English', () => {
    expect(detectLocale(memoryStorage({ milang: 'zh-cn' }), ['en-US'])).toBe('zh-CN')
    expect(detectLocale(memoryStorage({ milang: 'en-us' }), ['zh-CN'])).toBe('en-US')
    expect(detectLocale(memoryStorage(), ['fr-FR', 'zh-TW', 'en'])).toBe('zh-CN')
    expect(detectLocale(memoryStorage(), ['de'])).toBe('en-US')
    expect(detectLocale(memoryStorage({ milang: 'klingon' }), [])).toBe('en-US')
    expect(detectLocale(brokenStorage, ['zh'])).toBe('zh-CN')
  })

  it('is saved under the key the original UI used', () => {
    const storage = memoryStorage()
    saveLocale(storage, 'zh-CN')
    expect(storage.getItem('milang')).toBe('zh-cn')
    expect(detectLocale(storage, ['en'])).toBe('zh-CN')
    expect(normalizeLocale(42)).toBeNull()
  })
})

describe('theme preference', () => {
  it('defaults to light and round-trips dark', () => {
    const storage = memoryStorage()
    expect(loadTheme(storage)).toBe('light')
    saveTheme(storage, 'dark')
    expect(storage.getItem('miTheme')).toBe('1')
    expect(loadTheme(storage)).toBe('dark')
    expect(loadTheme(brokenStorage)).toBe('light')
  })
})

describe('auto refresh preference', () => {
  it('is on every 10 s by default, interval clamped to 3..300', () => {
    expect(loadAutoRefresh(memoryStorage())).toEqual({ enabled: true, interval: 10 })
    const storage = memoryStorage()
    saveAutoRefresh(storage, { enabled: false, interval: 1000 })
    expect(loadAutoRefresh(storage)).toEqual({ enabled: false, interval: 300 })
    expect(clampInterval(1)).toBe(3)
    expect(clampInterval('abc')).toBe(10)
    expect(clampInterval(42.4)).toBe(42)
  })
})

describe('typed refresh interval', () => {
  it('accepts whole seconds from 3 to 300', () => {
    expect(parseInterval('3')).toEqual({ seconds: 3 })
    expect(parseInterval(' 300 ')).toEqual({ seconds: 300 })
    expect(parseInterval('015')).toEqual({ seconds: 15 })
  })

  it('refuses anything else and says why, instead of guessing a value', () => {
    expect(parseInterval('')).toEqual({ error: 'empty' })
    expect(parseInterval('   ')).toEqual({ error: 'empty' })
    expect(parseInterval(null)).toEqual({ error: 'empty' })
    for (const text of ['abc', '10s', '7.5', '-5', '+5', '1e2', '0x10']) {
      expect(parseInterval(text), text).toEqual({ error: 'notNumber' })
    }
    expect(parseInterval('2')).toEqual({ error: 'outOfRange' })
    expect(parseInterval('0')).toEqual({ error: 'outOfRange' })
    expect(parseInterval('301')).toEqual({ error: 'outOfRange' })
  })
})
