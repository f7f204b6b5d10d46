// GET /v1/mindinsight/datavisual/image/*: retained steps of an image tag and their encoded bytes.
import { API_BASE, get } from './http.js'
import { serializeParams } from '@/lib/params.js'

/**
 * `{metadatas: [{wall_time, step, width, height}]}` (at most 10 retained steps).
 * @returns {Promise<import('./answers').ImageMetadataAnswer>}
 */
export function fetchImageMetadata(trainId, tag, options) {
  return get('datavisual/image/metadata', { train_id: trainId, tag }, options)
}

/**
 * URL of the image of one step (`step` -1 = the latest retained), for an `<img src>`. `wt` (the
 * step's wall time) is ignored by the server: it makes the URL change when a step is rewritten.
 */
export function singleImageUrl(trainId, tag, step, wallTime) {
  const query = serializeParams({ train_id: trainId, tag, step, wt: wallTime })
  return `${API_BASE}/datavisual/image/single-image?${query}`
}
