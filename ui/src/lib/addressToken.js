/**
 * The access token of `mindinsight start`'s web address (`/?token=...`) leaves the address bar
 * once the page has loaded: the server answered that address with its HttpOnly cookie, which
 * every later request carries, so the token need not stay in the history, bookmarks or a
 * shared screenshot.
 */

/** `href` without its `token` query parameter (path, other parameters and hash kept), or null when it has none. */
export function addressWithoutToken(href) {
  const url = new URL(href)
  const params = url.search.replace(/^\?/, '').split('&')
  const kept = params.filter((param) => param !== '' && param.split('=', 1)[0] !== 'token')
  if (kept.length === params.filter((param) => param !== '').length) return null
  return url.pathname + (kept.length ? `?${kept.join('&')}` : '') + url.hash
}

/**
 * Replace the current history entry by the address without its token. Runs before the router
 * is created: the hash history takes the path and query it starts on as its base.
 */
export function dropTokenFromAddress(location = window.location, history = window.history) {
  const cleaned = addressWithoutToken(location.href)
  if (cleaned !== null) history.replaceState(history.state, '', cleaned)
}
