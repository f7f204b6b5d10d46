import { ref } from 'vue'
import { createI18n } from 'vue-i18n'
import { DEFAULT_LOCALE } from '@/lib/preferences.js'
import { byLocale } from './byLocale.js'
import { messageCompiler } from './messageCompiler.js'
import { fetchPageMessages } from './pageMessages.js'

// One JSON file per namespace and locale (`en-US/scalar.json` holds the `scalar.*` keys), so each
// page owns its messages. The app's first load carries only what the shell, the summary list and
// the training dashboard's first card say; the other pages' messages and the error messages come
// with pages.js (one chunk of messages, see vite.config.js) before such a page opens (as the app
// starts, when the address opens one: src/startPage.js), once the dashboard's first chart is
// drawn (its other cards use them), or when an error is first described (lib/errors.js).
export const messages = byLocale(
  import.meta.glob('./*/{app,common,header,summaryList,dashboard,chart,notFound}.json', {
    eager: true,
    import: 'default',
  }),
)

const merged = new WeakSet()
let appI18n = null
// Whether the app's messages hold the other pages' (and the error) messages: what reads a message
// that may not be in yet reads this too, and follows once they are (vue-i18n's `te` does not).
export const pageMessagesLoaded = ref(false)

/**
 * Adds the other pages' messages to `i18n` (the app's i18n or its global composer; once each);
 * without `i18n`, to the app's (the last createAppI18n).
 */
export async function loadPageMessages(i18n = appI18n) {
  if (!i18n) return
  const target = i18n.global ?? i18n
  const { messages: pages } = await fetchPageMessages()
  if (merged.has(target)) return
  merged.add(target)
  for (const [locale, namespaces] of Object.entries(pages)) target.mergeLocaleMessage(locale, namespaces)
  if (target === appI18n?.global) pageMessagesLoaded.value = true
}

export function createAppI18n(locale) {
  appI18n = createI18n({
    legacy: false,
    locale,
    fallbackLocale: DEFAULT_LOCALE,
    messages,
    // Ours instead of vue-i18n's run-time compiler, which the build leaves out (vite.config.js).
    messageCompiler,
  })
  return appI18n
}
