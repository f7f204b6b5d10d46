// POST lineagemgr/lineages for the runs of a comparison. Not in lineage.js: that module is shared
// with pages the dashboard may load early, and the comparison page is the only one needing this.
import { post } from './http.js'

/**
 * The lineage answer of the trainings `trainIds` (those without lineage are left out).
 * @returns {Promise<import('./answers').SearchLineagesAnswer>}
 */
export function fetchRunsLineage(trainIds, options) {
  return post('lineagemgr/lineages', { summary_dir: { in: trainIds } }, undefined, options)
}
