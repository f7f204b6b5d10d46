import { byLocale } from './byLocale.js'

// The messages of every page besides the summary list and the training dashboard, and the error
// messages (see index.js): one chunk, fetched when the app first needs one of them.
export const messages = byLocale(
  import.meta.glob(['./*/*.json', '!./*/{app,common,header,summaryList,dashboard,chart,notFound}.json'], {
    eager: true,
    import: 'default',
  }),
)
