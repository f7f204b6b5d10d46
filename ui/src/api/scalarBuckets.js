// /v1/mindinsight/datavisual/scalar/buckets (mindinsight/backend/api/scalars.py). Not in
// datavisual.js: that module is in the dashboard's first chunk (its size is capped), and even a
// re-export from it would pull this one in there.
import { get } from './http.js'

/** @typedef {import('./http.js').RequestOptions} RequestOptions */

/**
 * Every point of one scalar tag in steps `start..end` (both included; left out: the tag's
 * first / last step), reduced to at most `width` buckets (one per pixel column).
 * @param {string} trainId
 * @param {string} tag
 * @param {{width: number, start?: number, end?: number}} range
 * @param {RequestOptions} [options]
 * @returns {Promise<import('./answers').ScalarBucketsViewAnswer>}
 */
export function fetchScalarBuckets(trainId, tag, { width, start, end }, options) {
  return get('datavisual/scalar/buckets', { train_id: trainId, tag, width, start, end }, options)
}
