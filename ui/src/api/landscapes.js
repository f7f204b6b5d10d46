// Loss landscapes (GET datavisual/landscape/*).
import { get } from './http.js'

/**
 * `{intervals: [{id, value: [first, last]}]}` of a job's interval landscapes.
 * @returns {Promise<import('./answers').LandscapeIntervalsAnswer>}
 */
export function fetchIntervals(trainId, options) {
  return get('datavisual/landscape/intervals', { train_id: trainId }, options)
}

/**
 * `{landscapes: [...]}`: per job its landscape of `type` (interval with `intervalId`, or final), or `{error_code, train_id}`.
 * @returns {Promise<import('./answers').LandscapeListAnswer>}
 */
export function fetchLandscapes(trainIds, type, intervalId, options) {
  const params = { train_id: trainIds, type }
  if (intervalId) params.interval_id = intervalId
  return get('datavisual/landscape/landscapes', params, options)
}
