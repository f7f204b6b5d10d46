import { askEarly } from '@/api/http.js'
import { searchLineages } from '@/api/lineage.js'

// The most runs a lineage page holds whole (the original's largest page): the chart draws them,
// and when the query matches more the table asks the server for one page at a time.
export const CHART_RUNS = 100
const CHART_PAGE = { limit: CHART_RUNS, offset: 0 }

/** The chart's rows: the `lineageType` lineage of the CHART_RUNS latest runs `query` matches. */
export function readChartRows(lineageType, query) {
  return searchLineages(lineageType, query, undefined, CHART_PAGE)
}

/**
 * Asks for the chart's rows as a page's route is entered (routes.js), so the request runs while
 * the page's scripts load: the page's first read takes the answer (api/http.js, askEarly).
 */
export function askChartRowsEarly(lineageType, query) {
  askEarly(() => readChartRows(lineageType, query))
}
