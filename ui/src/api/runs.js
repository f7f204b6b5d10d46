// /v1/mindinsight/datavisual/runs: the runs table (route in mindinsight/backend/api/runs.py).
import { get } from './http.js'

/**
 * One page of the runs table: rows `offset..offset+limit` of the runs `query` matches, sorted
 * by `sort` (a column) in `order` (`asc`/`desc`), each row holding the values of `columns`
 * (omitted: every hyper-parameter column).
 * @param {{offset?: number, limit?: number, sort?: string, order?: string, query?: string, columns?: string[]}} page
 * @param {import('./http.js').RequestOptions} [options]
 * @returns {Promise<import('./answers').ListRunsAnswer>}
 */
export function fetchRuns({ offset = 0, limit = 100, sort, order, query, columns } = {}, options) {
  return get('datavisual/runs', { offset, limit, sort, order, query: query || undefined, columns }, options)
}
