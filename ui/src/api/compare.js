import { get } from './http.js'

// /v1/mindinsight/datavisual/scalars, the scalars comparison: apart from datavisual.js so that the
// dashboard's first load does not carry it.

/**
 * Multi-run comparison: every (job, tag) pair that exists.
 * @returns {Promise<import('./answers').ScalarsComparisonAnswer>}
 */
export function fetchScalars(trainIds, tags, options) {
  return get('datavisual/scalars', { train_id: trainIds, tag: tags }, options)
}
