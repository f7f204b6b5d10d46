// /v1/mindinsight/datavisual/* (see shared spec rest-api.md §2-3).
import { get, post } from './http.js'

/** One page of train jobs; `offset` is the 0-based PAGE index, `limit` the page size. */
export function fetchTrainJobs({ offset = 0, limit = 20, trainId } = {}, options) {
  return get('datavisual/train-jobs', { offset, limit, train_id: trainId }, options)
}

/** Tags per plugin of a job; manualUpdate=true also puts the job into the detail cache. */
export function fetchPlugins(trainId, { manualUpdate = false } = {}, options) {
  return get('datavisual/plugins', { train_id: trainId, manual_update: manualUpdate ? 'true' : 'false' }, options)
}

export function fetchSingleJob(trainId, pluginName, options) {
  return get('datavisual/single-job', { train_id: trainId, plugin_name: pluginName }, options)
}

/** `{metadatas: [{wall_time, step, value}]}` of one scalar tag. */
export function fetchScalarMetadata(trainId, tag, options) {
  return get('datavisual/scalar/metadata', { train_id: trainId, tag }, options)
}

/** Multi-run comparison: every (job, tag) pair that exists. */
export function fetchScalars(trainIds, tags, options) {
  return get('datavisual/scalars', { train_id: trainIds, tag: tags }, options)
}

export function cacheTrainJobs(trainIds, options) {
  return post('datavisual/train-job-caches', { train_ids: trainIds }, undefined, options)
}
