// Paging of the summary list. The train-jobs API takes `offset` as a PAGE INDEX (0-based) and
// `limit` as the page size: offset=1&limit=20 returns items 20..39.

export const PAGE_SIZES = [10, 20, 50]
export const DEFAULT_PAGE_SIZE = 20
const STORAGE_KEY = 'mindinsight.summaryList.paging'

export function normalizePageSize(size) {
  const value = Number(size)
  return PAGE_SIZES.includes(value) ? value : DEFAULT_PAGE_SIZE
}

export function pageCount(total, pageSize) {
  const count = Math.ceil(Math.max(0, Number(total) || 0) / normalizePageSize(pageSize))
  return Math.max(1, count)
}

/** A 1-based page number kept inside 1..pageCount. */
export function clampPage(page, total, pageSize) {
  const value = Math.floor(Number(page))
  if (!Number.isFinite(value) || value < 1) return 1
  return Math.min(value, pageCount(total, pageSize))
}

/** Query parameters of GET train-jobs for a 1-based page. */
export function pageRequest(page, pageSize) {
  const current = Math.floor(Number(page))
  return { offset: Number.isFinite(current) && current > 1 ? current - 1 : 0, limit: normalizePageSize(pageSize) }
}

/** 1-based number of the row at `index` of `page` (the "No." column). */
export function rowNumber(page, pageSize, index) {
  return pageRequest(page, pageSize).offset * normalizePageSize(pageSize) + index + 1
}

/** Page and size remembered for the session (as the original UI did, in sessionStorage). */
export function loadPaging(storage) {
  try {
    const saved = JSON.parse(storage?.getItem(STORAGE_KEY) || 'null')
    if (saved && typeof saved === 'object') {
      const pageSize = normalizePageSize(saved.pageSize)
      const page = Math.floor(Number(saved.page))
      return { page: Number.isFinite(page) && page >= 1 ? page : 1, pageSize }
    }
  } catch {
    // unreadable storage: fall back to defaults
  }
  return { page: 1, pageSize: DEFAULT_PAGE_SIZE }
}

export function savePaging(storage, { page, pageSize }) {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify({ page, pageSize: normalizePageSize(pageSize) }))
  } catch {
    // storage full or disabled: paging just is not remembered
  }
}
