// Profiler output of a train job: operator statistics (POST profile/ops/search) and its devices.
import { get, post } from './http.js'

/**
 * `{col_name, object: [rows], size}` of one view of the operator statistics.
 * @returns {Promise<import('./answers').OpsSearchAnswer>}
 */
export function searchOps(profile, trainId, condition, options) {
  return post('profile/ops/search', condition, { profile, train_id: trainId }, options)
}

/**
 * `{device_list, profiler_mode}` of a profiler directory.
 * @returns {Promise<import('./answers').ProfileDevicesAnswer>}
 */
export function fetchDevices(profile, trainId, options) {
  return get('profile/devices', { profile, train_id: trainId }, options)
}
