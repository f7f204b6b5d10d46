// /v1/mindinsight/datavisual/*: train jobs, plugins, scalars (routes in mindinsight/backend/api/).
import { get, post } from './http.js'

/** @typedef {import('./http.js').RequestOptions} RequestOptions */

/**
 * One page of train jobs; `offset` is the 0-based PAGE index, `limit` the page size; with `query`
 * (the query language over runs) only the jobs it matches, `total` counting them.
 * @param {{offset?: number, limit?: number, trainId?: string, query?: string}} [page]
 * @param {RequestOptions} [options]
 * @returns {Promise<import('./answers').ListTrainJobsAnswer>}
 */
export function fetchTrainJobs({ offset = 0, limit = 20, trainId, query } = {}, options) {
  return get('datavisual/train-jobs', { offset, limit, train_id: trainId, query }, options)
}

/** The query (query language) matching the train ids that contain `text`, case-insensitive. */
export function nameContainsQuery(text) {
  const pattern = String(text).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return `name ~ "(?i)${pattern.replace(/["\\]/g, '\\$&')}"`
}

// Longest regular expression one names query holds (the server takes up to 1,000 characters).
const NAMES_PATTERN_LENGTH = 900

/**
 * Queries (query language) that together match exactly the train ids `names`, each with the
 * number of names it holds: as few as the server's limit on a regular expression allows, so that
 * many trainings are read in a request or two rather than one each.
 * @returns {Array<{query: string, size: number}>}
 */
export function namesQueries(names) {
  const escaped = [...new Set(names)].map((name) => String(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  const groups = []
  for (const name of escaped) {
    const last = groups[groups.length - 1]
    if (last && last.join('|').length + name.length + 1 <= NAMES_PATTERN_LENGTH) last.push(name)
    else groups.push([name])
  }
  return groups.map((group) => ({
    query: `name ~ "^(?:${group.join('|').replace(/["\\]/g, '\\$&')})$"`,
    size: group.length,
  }))
}

/**
 * The train-jobs items of the trainings `names` (those that exist), in as few requests as
 * `namesQueries` makes.
 */
export async function fetchNamedTrainJobs(names, options) {
  const answers = await Promise.all(
    namesQueries(names).map(({ query, size }) => fetchTrainJobs({ offset: 0, limit: size, query }, options)),
  )
  return answers.flatMap((body) => (Array.isArray(body?.train_jobs) ? body.train_jobs : []))
}

/**
 * Tags per plugin of a job; manualUpdate=true also puts the job into the detail cache.
 * @returns {Promise<import('./answers').PluginsAnswer>}
 */
export function fetchPlugins(trainId, { manualUpdate = false } = {}, options) {
  return get('datavisual/plugins', { train_id: trainId, manual_update: manualUpdate ? 'true' : 'false' }, options)
}

/** @returns {Promise<import('./answers').SingleJobAnswer>} */
export function fetchSingleJob(trainId, pluginName, options) {
  return get('datavisual/single-job', { train_id: trainId, plugin_name: pluginName }, options)
}

/**
 * `{metadatas: [{wall_time, step, value}]}` of one scalar tag.
 * @returns {Promise<import('./answers').ScalarMetadataAnswer>}
 */
export function fetchScalarMetadata(trainId, tag, options) {
  return get('datavisual/scalar/metadata', { train_id: trainId, tag }, options)
}

/** @returns {Promise<import('./answers').TrainJobCachesAnswer>} */
export function cacheTrainJobs(trainIds, options) {
  return post('datavisual/train-job-caches', { train_ids: trainIds }, undefined, options)
}

/**
 * The kept steps of one tag of a per-tag kind whose route answers them as rows
 * (`PerTagTopic.tag_steps` on the server): `{train_id, tag, <name>: [{wall_time, step, ...}]}`.
 * `path` is the route below `datavisual/`, e.g. `'texts'`; the rows are under the answer's
 * `name` key (the route's last path segment when not given).
 * @template {Record<string, unknown>} Row
 * @param {string} path
 * @param {string} trainId
 * @param {string} tag
 * @param {{name?: string}} [answer]
 * @param {RequestOptions} [options]
 * @returns {Promise<Array<{wall_time: number, step: number} & Row>>}
 */
export async function fetchTagSteps(path, trainId, tag, { name = path.split('/').pop() } = {}, options) {
  const body = await get(`datavisual/${path}`, { train_id: trainId, tag }, options)
  const rows = body?.[name]
  return Array.isArray(rows) ? rows : []
}
