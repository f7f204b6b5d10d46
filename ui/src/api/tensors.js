// GET /v1/mindinsight/datavisual/tensors: retained steps of a tensor tag, with statistics,
// histogram buckets or a slice of the values.
import { get } from './http.js'

/**
 * `{tensors: [{train_id, tag, values: [{wall_time, step, value: {dims, data_type, ...}}]}]}`.
 * `detail`: undefined (dims and type), 'stats', 'histogram', or 'data' (then `step` and `dims`,
 * e.g. '[0,:,:]', are required).
 */
export function fetchTensors(trainId, tag, { detail, step, dims } = {}, options) {
  return get('datavisual/tensors', { train_id: trainId, tag, detail, step, dims }, options)
}
