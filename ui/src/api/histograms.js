// GET /v1/mindinsight/datavisual/histograms: the retained steps of one histogram tag.
import { get } from './http.js'

/**
 * `{train_id, tag, histograms: [{wall_time, step, buckets: [[left, width, count], ...]}]}`
 * @returns {Promise<import('./answers').HistogramStepsAnswer>}
 */
export function fetchHistograms(trainId, tag, options) {
  return get('datavisual/histograms', { train_id: trainId, tag }, options)
}
