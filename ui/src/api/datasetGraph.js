// GET /v1/mindinsight/datasets/dataset_graph: a job's data-processing pipeline (from its lineage).
import { get } from './http.js'

/**
 * `{dataset_graph, summary_dir}`; `{}` when the job recorded no pipeline.
 * @returns {Promise<import('./answers').DatasetGraphAnswer>}
 */
export function fetchDatasetGraph(trainId, options) {
  return get('datasets/dataset_graph', { train_id: trainId }, options)
}
