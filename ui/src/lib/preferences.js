// User preferences kept in localStorage, under the keys the original UI used:
//   milang          'en-us' | 'zh-cn'        (language)
//   miTheme         '0' light | '1' dark     (theme)
//   isTimeReload    'true' | 'false'         (auto refresh)
//   timeReloadValue seconds, 3..300          (auto refresh interval)

export const LOCALES = ['en-US', 'zh-CN']
export const DEFAULT_LOCALE = 'en-US'
export const THEMES = ['light', 'dark']
export const DEFAULT_REFRESH_SECONDS = 10
export const MIN_REFRESH_SECONDS = 3
export const MAX_REFRESH_SECONDS = 300

const KEYS = { locale: 'milang', theme: 'miTheme', autoRefresh: 'isTimeReload', interval: 'timeReloadValue' }

function read(storage, key) {
  try {
    return storage?.getItem(key) ?? null
  } catch {
    return null
  }
}

function write(storage, key, value) {
  try {
    storage?.setItem(key, value)
  } catch {
    // storage disabled or full: the preference only lasts for this page
  }
}

/** 'zh', 'zh-CN', 'zh-cn', 'zh_TW' -> 'zh-CN'; 'en', 'en-us' -> 'en-US'; anything else -> null. */
export function normalizeLocale(value) {
  if (typeof value !== 'string') return null
  const lang = value.trim().toLowerCase()
  if (lang.startsWith('zh')) return 'zh-CN'
  if (lang.startsWith('en')) return 'en-US'
  return null
}

/** Saved language first, then the browser's preferred languages, then English. */
export function detectLocale(storage, languages = []) {
  const saved = normalizeLocale(read(storage, KEYS.locale))
  if (saved) return saved
  for (const language of languages || []) {
    const locale = normalizeLocale(language)
    if (locale) return locale
  }
  return DEFAULT_LOCALE
}

export function saveLocale(storage, locale) {
  write(storage, KEYS.locale, locale.toLowerCase())
}

export function loadTheme(storage) {
  const saved = read(storage, KEYS.theme)
  return saved === '1' || saved === 'dark' ? 'dark' : 'light'
}

export function saveTheme(storage, theme) {
  write(storage, KEYS.theme, theme === 'dark' ? '1' : '0')
}

export function clampInterval(seconds) {
  const value = Math.round(Number(seconds))
  if (!Number.isFinite(value)) return DEFAULT_REFRESH_SECONDS
  return Math.min(MAX_REFRESH_SECONDS, Math.max(MIN_REFRESH_SECONDS, value))
}

/**
 * Checks an interval the user typed. Returns `{ seconds }` for a whole number of seconds in
 * MIN..MAX, else `{ error }`: 'empty', 'notNumber' (letters, decimals, signs) or 'outOfRange'.
 * Unlike clampInterval (for stored values), nothing is guessed: the user is told what is wrong.
 */
export function parseInterval(text) {
  const value = String(text ?? '').trim()
  if (value === '') return { error: 'empty' }
  if (!/^\d+$/.test(value)) return { error: 'notNumber' }
  const seconds = Number(value)
  if (seconds < MIN_REFRESH_SECONDS || seconds > MAX_REFRESH_SECONDS) return { error: 'outOfRange' }
  return { seconds }
}

export function loadAutoRefresh(storage) {
  const enabled = read(storage, KEYS.autoRefresh)
  const interval = read(storage, KEYS.interval)
  return {
    enabled: enabled === null ? true : enabled !== 'false',
    interval: interval === null ? DEFAULT_REFRESH_SECONDS : clampInterval(interval),
  }
}

export function saveAutoRefresh(storage, { enabled, interval }) {
  write(storage, KEYS.autoRefresh, enabled ? 'true' : 'false')
  write(storage, KEYS.interval, String(clampInterval(interval)))
}
