import { loadPageMessages, pageMessagesLoaded } from '@/locales/index.js'

/**
 * The text shown for a failed request. A server error is shown in the user's language by its
 * error code (`errors.<code>` in the locale files); an unknown code falls back to the server's
 * English error_msg. Without a server answer: unreachable server, HTTP status, generic failure.
 * `t` and `te` are vue-i18n's translate and "translation exists".
 *
 * The error messages are not in the app's first load: the first error described fetches them,
 * and the text follows in the user's language as soon as they are in (messages are reactive).
 */
export function describeError(error, t, te = null) {
  if (error?.network) return t('common.networkError')
  const key = error?.code ? `errors.${error.code}` : null
  if (key && te?.(key)) return t(key)
  if (key && !pageMessagesLoaded.value) loadPageMessages()
  if (error?.message) return error.message
  if (error?.status) return t('common.httpStatus', { status: error.status })
  return t('common.requestFailed')
}

/**
 * The server's own error_msg when the text shown is a translation of its code: it carries the
 * details (which parameter, which path) that the translated text leaves out. Null otherwise.
 */
export function serverDetail(error, shown) {
  const message = error?.message?.trim()
  return message && message !== shown ? message : null
}
