import { createI18n } from 'vue-i18n'
import enUS from './en-US.json'
import zhCN from './zh-CN.json'
import { DEFAULT_LOCALE } from '../lib/preferences.js'

export const messages = { 'en-US': enUS, 'zh-CN': zhCN }

export function createAppI18n(locale) {
  return createI18n({
    legacy: false,
    locale,
    fallbackLocale: DEFAULT_LOCALE,
    messages,
  })
}
