import { createI18n } from 'vue-i18n'
import { DEFAULT_LOCALE } from '../lib/preferences.js'
import { messageCompiler } from './messageCompiler.js'

// One JSON file per namespace and locale (`en-US/scalar.json` holds the `scalar.*` keys), so
// each page owns its messages.
const files = import.meta.glob('./*/*.json', { eager: true, import: 'default' })

export const messages = {}
for (const [path, content] of Object.entries(files)) {
  const [, locale, namespace] = path.match(/^\.\/([^/]+)\/([^/]+)\.json$/)
  messages[locale] = { ...messages[locale], [namespace]: content }
}

export function createAppI18n(locale) {
  return createI18n({
    legacy: false,
    locale,
    fallbackLocale: DEFAULT_LOCALE,
    messages,
    // Ours instead of vue-i18n's run-time compiler, which the build leaves out (vite.config.js).
    messageCompiler,
  })
}
