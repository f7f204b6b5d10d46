// The runs table's view state in the route query and its cells (RunsPage.vue).

export const SUMMARIES = ['last', 'min', 'max']
export const DEFAULT_SORT = 'update_time'
export const DEFAULT_ORDER = 'desc'

/** The route query's list parameter as an array (`?col=a&col=b`; absent: null). */
export function queryList(value) {
  if (value === undefined || value === null) return null
  return (Array.isArray(value) ? value : [value]).filter((item) => typeof item === 'string' && item !== '')
}

/** `{query, sort, order, columns}` of a route query; `columns` null means the server's default. */
export function viewFromQuery(query) {
  return {
    query: typeof query.q === 'string' ? query.q : '',
    sort: typeof query.sort === 'string' && query.sort ? query.sort : DEFAULT_SORT,
    order: query.order === 'asc' ? 'asc' : DEFAULT_ORDER,
    columns: queryList(query.col),
  }
}

/** The summary columns of scalar tags: `loss.last`, `loss.min`, `loss.max`, ... */
export function summaryColumns(tags) {
  return tags.flatMap((tag) => SUMMARIES.map((summary) => `${tag}.${summary}`))
}

/** Whether a column is a scalar tag's summary (its value is unknown for runs not read yet). */
export function isSummaryColumn(column, hyperParameters) {
  return !hyperParameters.includes(column) && SUMMARIES.some((summary) => column.endsWith(`.${summary}`))
}

/** A cell's text: numbers to 6 significant digits, other values as JSON, missing ones as –. */
export function cellText(value) {
  if (value === null || value === undefined) return '–'
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)))
  if (typeof value === 'string') return value
  return JSON.stringify(value)
}

/** The page indices (of `size` rows) that rows `start..end` (inclusive) fall on. */
export function pagesOf(start, end, size) {
  const pages = []
  for (let page = Math.floor(Math.max(0, start) / size); page <= Math.floor(Math.max(0, end) / size); page += 1)
    pages.push(page)
  return pages
}
