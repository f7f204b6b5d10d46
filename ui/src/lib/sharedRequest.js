/**
 * Remembers the last request made for a key: asking again for the same key gets the request that
 * is under way (or done) instead of a new one. Pages whose watchers fire because the page's own
 * load changed what they watch use it so that one load sends each request once; a new key (put a
 * load counter in it to ask again on purpose) sends a new request.
 *
 * `request(key, send)` calls `send()` unless `key` is the last key asked for; `isLatest(key)` says
 * whether an answer for `key` is still wanted (no other key was asked for since).
 */
export function sharedRequest() {
  let lastKey
  let lastPromise
  return {
    request(key, send) {
      if (lastPromise && key === lastKey) return lastPromise
      lastKey = key
      lastPromise = new Promise((resolve) => resolve(send()))
      return lastPromise
    },
    isLatest: (key) => key === lastKey,
  }
}
