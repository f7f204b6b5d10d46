let pageModule = null

/** Starts fetching the other pages' messages (pages.js), once; their module. */
export function fetchPageMessages() {
  pageModule ||= import('./pages.js')
  return pageModule
}
