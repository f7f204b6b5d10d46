// Web storage that never throws. A browser that blocks storage (a cross-site frame, third-party
// storage blocked, some private modes) throws a SecurityError on merely reading
// `window.localStorage`; a full one throws on setItem. The app must still start, so every read and
// write is guarded, and a value the browser would not keep is kept in memory for the page's life.

/** A Storage-like `{getItem, setItem, removeItem}` over the storage `open()` returns. */
export function guardedStorage(open) {
  const kept = new Map() // key -> value (null: removed) the browser would not store
  let store = null
  try {
    store = open()
  } catch {
    // blocked: values live in `kept` only
  }
  const attempt = (write, key, value) => {
    try {
      write()
      kept.delete(key)
    } catch {
      kept.set(key, value)
    }
  }
  return {
    getItem(key) {
      if (kept.has(key)) return kept.get(key)
      try {
        return store.getItem(key)
      } catch {
        return null
      }
    },
    setItem: (key, value) => attempt(() => store.setItem(key, String(value)), key, String(value)),
    removeItem: (key) => attempt(() => store.removeItem(key), key, null),
  }
}

export const localStore = guardedStorage(() => window.localStorage)
export const sessionStore = guardedStorage(() => window.sessionStorage)
