import { createI18n } from 'vue-i18n'
import { DEFAULT_LOCALE } from '@/lib/preferences.js'
import { byLocale } from './byLocale.js'
import { messageCompiler } from './messageCompiler.js'

// One JSON file per namespace and locale (`en-US/scalar.json` holds the `scalar.*` keys), so each
// page owns its messages. The app's first load carries only what the shell, the summary list and
// the training dashboard's first card say (and every error message); the other pages' messages
// come in one chunk (pages.js) before such a page opens, or once the dashboard's first chart is
// drawn (its other cards use them).
export const messages = byLocale(
  import.meta.glob('./*/{app,common,header,summaryList,dashboard,errors,chart,notFound}.json', {
    eager: true,
    import: 'default',
  }),
)

let pageModule = null
const merged = new WeakSet()

/** Adds the other pages' messages to `i18n` (the app's i18n or its global composer; once each). */
export async function loadPageMessages(i18n) {
  const target = i18n.global ?? i18n
  pageModule ||= import('./pages.js')
  const { messages: pages } = await pageModule
  if (merged.has(target)) return
  merged.add(target)
  for (const [locale, namespaces] of Object.entries(pages)) target.mergeLocaleMessage(locale, namespaces)
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
