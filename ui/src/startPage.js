import { fetchPageMessages } from './locales/pageMessages.js'
import { pageToLoad } from './router/index.js'

// Imported first by main.js, so this runs before the rest of the app's modules are evaluated and
// the app is made: the page the address opens starts fetching its code (the other pages' messages,
// if it waits for them, and its first reads) now. Left to the router, those were asked for only
// once the app was made and routed, and the page waited for them after that. The router calls the
// same loaders again: the browser fetches a module once, and a failure is the router's to report.
try {
  const page = pageToLoad(location.hash.slice(1))
  for (const load of page.loaders) Promise.resolve(load()).catch(() => {})
  if (!page.coreMessages) fetchPageMessages().catch(() => {})
  // Its first reads: their answers are then in, or on their way, when the page asks.
  page.firstReads()
} catch {
  // An address the router cannot read either: it reports it once the app is made.
}
