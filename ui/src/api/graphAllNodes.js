// GET /v1/mindinsight/datavisual/graphs/nodes/all: every operator of a graph file (the leaves of
// its name scopes), as the reduced-precision operator page lists them.
import { get } from './http.js'

/**
 * `{all_nodes_detail: [{name, type, attr, input, output, ...}]}` of graph tag `tag` (mode normal).
 * @returns {Promise<import('./answers').GraphAllNodesAnswer>}
 */
export function fetchAllGraphNodes(trainId, tag, options) {
  return get('datavisual/graphs/nodes/all', { train_id: trainId, tag, mode: 'normal' }, options)
}
