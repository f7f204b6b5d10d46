import { describe, expect, it } from 'vitest'
import { guardedStorage } from '@/lib/storage.js'
import { brokenStorage, memoryStorage } from './storage.js'

const securityError = () => {
  throw new DOMException('The document is sandboxed and lacks the allow-same-origin flag.', 'SecurityError')
}

/** A storage that holds nothing new: every setItem fails as a full one does. */
function fullStorage(initial) {
  const store = memoryStorage(initial)
  store.setItem = () => {
    throw new DOMException('Quota exceeded', 'QuotaExceededError')
  }
  store.removeItem = store.setItem
  return store
}

describe('guarded storage', () => {
  it('keeps values in memory when opening the storage throws a SecurityError', () => {
    const storage = guardedStorage(securityError)
    expect(storage.getItem('miTheme')).toBeNull()
    storage.setItem('miTheme', 1)
    expect(storage.getItem('miTheme')).toBe('1')
    storage.removeItem('miTheme')
    expect(storage.getItem('miTheme')).toBeNull()
  })

  it('keeps values in memory when the storage throws on every call', () => {
    const storage = guardedStorage(() => brokenStorage)
    expect(storage.getItem('milang')).toBeNull()
    storage.setItem('milang', 'zh-cn')
    expect(storage.getItem('milang')).toBe('zh-cn')
  })

  it('keeps a value a full storage refuses, over the stored one', () => {
    const store = fullStorage({ isTimeReload: 'true' })
    const storage = guardedStorage(() => store)
    expect(storage.getItem('isTimeReload')).toBe('true')
    storage.setItem('isTimeReload', 'false')
    expect(storage.getItem('isTimeReload')).toBe('false')
    expect(store.getItem('isTimeReload')).toBe('true')
    storage.removeItem('isTimeReload')
    expect(storage.getItem('isTimeReload')).toBeNull()
  })

  it('writes through to a working storage', () => {
    const store = memoryStorage({ milang: 'en-us' })
    const storage = guardedStorage(() => store)
    expect(storage.getItem('milang')).toBe('en-us')
    storage.setItem('milang', 'zh-cn')
    expect(store.getItem('milang')).toBe('zh-cn')
    storage.removeItem('milang')
    expect(store.getItem('milang')).toBeNull()
    expect(storage.getItem('milang')).toBeNull()
  })
})
