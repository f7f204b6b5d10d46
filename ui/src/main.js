import './startPage.js' // first: see there
import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { createAppRouter } from './router/index.js'
import { createAppI18n, loadPageMessages } from './locales/index.js'
import { detectLocale } from './lib/preferences.js'
import { dropTokenFromAddress } from './lib/addressToken.js'
import { localStore } from './lib/storage.js'
import { useAppStore } from './stores/app.js'
import element from './plugins/element.js'
import './styles/theme.css'

dropTokenFromAddress()
const locale = detectLocale(localStore, navigator.languages?.length ? navigator.languages : [navigator.language])

const app = createApp(App)
const pinia = createPinia()
app.use(pinia)
useAppStore(pinia).setLocale(locale, { persist: false })
const i18n = createAppI18n(locale)
app.use(i18n)
app.use(createAppRouter({ loadMessages: () => loadPageMessages(i18n) }))
app.use(element)
app.mount('#app')
