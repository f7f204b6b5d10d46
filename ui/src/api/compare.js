import { get } from './http.js'

// /v1/mindinsight/datavisual/scalars, the scalars comparison: apart from datavisual.js so that the
// dashboard's first load does not carry it.

/**
 * Multi-run comparison: every (job, tag) pair that exists; `compact` (ours) has each series
 * answered as columns (steps, values, wall times), a far smaller answer for many runs.
 * @returns {Promise<import('./answers').ScalarsComparisonAnswer>}
 */
export function fetchScalars(trainIds, tags, { compact = false } = {}, options) {
  return get('datavisual/scalars', { train_id: trainIds, tag: tags, compact: compact ? 'true' : undefined }, options)
}
