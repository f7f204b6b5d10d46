// GET /v1/mindinsight/datavisual/tensors: retained steps of a tensor tag, with statistics,
// histogram buckets or a slice of the values.
import { get } from './http.js'

/**
 * `{tensors: [{train_id, tag, values: [{wall_time, step, value: {dims, data_type, ...}}]}]}`.
 * `detail`: undefined (dims and type), 'stats', 'histogram', or 'data' (then `step` and `dims`,
 * e.g. '[0,:,:]', are required).
 * @param {string} trainId
 * @param {string} tag
 * @param {{detail?: 'stats' | 'histogram' | 'data', step?: number | string, dims?: string}} [query]
 * @param {import('./http.js').RequestOptions} [options]
 * @returns {Promise<import('./answers').TensorValuesAnswer>}
 */
export function fetchTensors(trainId, tag, { detail, step, dims } = {}, options) {
  return get('datavisual/tensors', { train_id: trainId, tag, detail, step, dims }, options)
}

/** The values of the first (only) tag of a tensors answer. */
function valuesOf(body) {
  const tensors = Array.isArray(body?.tensors) ? body.tensors : []
  return Array.isArray(tensors[0]?.values) ? tensors[0].values : []
}

/** Every retained step of a tag: `[{wall_time, step, value: {dims, data_type}}]`. */
export async function fetchTensorSteps(trainId, tag, options) {
  return valuesOf(await fetchTensors(trainId, tag, {}, options))
}

/** Every retained step with `value.histogram_buckets` and `value.statistics`. */
export async function fetchTensorHistograms(trainId, tag, options) {
  return valuesOf(await fetchTensors(trainId, tag, { detail: 'histogram' }, options))
}

/** One step's slice (`dims` like '[0,:,:]'): `{wall_time, step, value: {dims, data_type, data, statistics}}`. */
export async function fetchTensorData(trainId, tag, step, dims, options) {
  return valuesOf(await fetchTensors(trainId, tag, { detail: 'data', step, dims }, options))[0] || null
}
