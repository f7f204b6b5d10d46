import { defineStore } from 'pinia'
import { clampInterval, loadAutoRefresh, loadTheme, saveAutoRefresh, saveLocale, saveTheme } from '@/lib/preferences.js'
import { localStore } from '@/lib/storage.js'

const storage = localStore

/**
 * Global UI state: theme, language, auto refresh. Views watch `refreshTick`: it increases on every
 * auto-refresh period and on the manual refresh button, and views then re-query their data.
 */
export const useAppStore = defineStore('app', {
  state: () => {
    const refresh = loadAutoRefresh(storage)
    return {
      theme: loadTheme(storage),
      locale: 'en-US',
      autoRefresh: refresh.enabled,
      refreshInterval: refresh.interval,
      refreshTick: 0,
    }
  },
  actions: {
    setTheme(theme) {
      this.theme = theme === 'dark' ? 'dark' : 'light'
      saveTheme(storage, this.theme)
    },
    setLocale(locale, { persist = true } = {}) {
      this.locale = locale
      if (persist) saveLocale(storage, locale)
    },
    setAutoRefresh(enabled) {
      this.autoRefresh = Boolean(enabled)
      saveAutoRefresh(storage, { enabled: this.autoRefresh, interval: this.refreshInterval })
    },
    setRefreshInterval(seconds) {
      this.refreshInterval = clampInterval(seconds)
      saveAutoRefresh(storage, { enabled: this.autoRefresh, interval: this.refreshInterval })
    },
    requestRefresh() {
      this.refreshTick += 1
    },
  },
})
