// The computational graph of a job's graph file (GET datavisual/graphs/*), one scope level at a time.
// `mode` is 'normal', or 'optimize' for the readability-optimized view (its tags end in " (optimized)").
import { get } from './http.js'

/**
 * `{nodes}`: the nodes directly under `scope` ('' = the top level).
 * @returns {Promise<import('./answers').GraphNodesAnswer>}
 */
export function fetchGraphLevel(trainId, tag, mode, scope, options) {
  const params = { train_id: trainId, tag, mode }
  if (scope) params.name = scope
  return get('datavisual/graphs/nodes', params, options)
}

/**
 * `{nodes: [...]}` tree of the nodes whose name holds `search` (at most `limit`).
 * @returns {Promise<import('./answers').GraphNodeNamesAnswer>}
 */
export function searchGraphNodes(trainId, tag, mode, search, limit = 50, options) {
  return get('datavisual/graphs/nodes/names', { train_id: trainId, tag, mode, search, offset: 0, limit }, options)
}

/**
 * `{nodes, scope_name, children: {...}}`: every level from the top down to the scope holding `name`.
 * @returns {Promise<import('./answers').GraphPathLevel>}
 */
export function fetchNodePath(trainId, tag, mode, name, options) {
  return get('datavisual/graphs/single-node', { train_id: trainId, tag, mode, name }, options)
}
