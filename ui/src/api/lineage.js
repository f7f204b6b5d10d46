// Lineage of every train job (POST/PUT lineagemgr/lineages) and the optimization objective
// (POST optimizer/targets/search).
import { post, put } from './http.js'

/**
 * Every job's lineage of one kind (`model` or `dataset`): `{object: [...], count, customized}`;
 * with `query` (the query language over runs) only the jobs it matches; with `pageKeys` (the
 * original's limit, offset, sorted_name, sorted_type) one page of them, `count` counting them all.
 * @returns {Promise<import('./answers').SearchLineagesAnswer>}
 */
export function searchLineages(lineageType, query = '', options, pageKeys = null) {
  const body = { lineage_type: { in: [lineageType] }, ...pageKeys }
  if (query) body.query = query
  return post('lineagemgr/lineages', body, undefined, options)
}

// The most runs a lineage page holds whole (the original's largest page): the chart draws them,
// and when the query matches more the table asks the server for one page at a time.
export const CHART_RUNS = 100

/** A lineage page's chart rows: the `lineageType` lineage of the CHART_RUNS latest runs `query` matches. */
export function readChartRows(lineageType, query) {
  return searchLineages(lineageType, query, undefined, { limit: CHART_RUNS, offset: 0 })
}

/**
 * Stores a job's tag (0..10, 0 clears it) and/or remark (at most 128 characters).
 * @returns {Promise<import('./answers').UpdateLineageAnswer>}
 */
export function updateLineageInfo(trainId, info) {
  return put('lineagemgr/lineages', info, { train_id: trainId })
}

/**
 * How much each hyper-parameter matters for each metric: `{metadata, targets}`, over the jobs
 * `query` (the query language over runs) matches.
 * @returns {Promise<import('./answers').SearchOptimizerTargetsAnswer>}
 */
export function searchOptimizerTargets(query = '', options) {
  return post('optimizer/targets/search', query ? { query } : {}, undefined, options)
}

/**
 * One job's lineage answer (`object` holds at most that job).
 * @returns {Promise<import('./answers').SearchLineagesAnswer>}
 */
export function fetchJobLineage(trainId, options) {
  return post('lineagemgr/lineages', { summary_dir: { in: [trainId] } }, undefined, options)
}
