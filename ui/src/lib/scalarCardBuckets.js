// Every point of the dashboard scalar card's lines, from `scalar/buckets` (one bucket per pixel
// column), so a spike the 1,000-point sample drops shows there too. The card imports this
// module only after its first drawing: the dashboard's first chunk stays as small as it was.
import { fetchScalarBuckets } from '@/api/scalarBuckets.js'
import { bucketPoints, bucketWidth } from './scalarBuckets.js'
import { buildScalarSeries } from './scalarSeries.js'

/**
 * The card's lines drawn from every point: `[{tag, data}]` as the card's sampled lines are
 * (`data` rows `[step, value or null, ...]` in step order), for a chart `chartWidth` pixels wide.
 * @param {string} trainId
 * @param {string[]} tags
 * @param {number} chartWidth
 * @returns {Promise<Array<{tag: string, data: Array}>>}
 */
export async function readEveryPointLines(trainId, tags, chartWidth) {
  const width = bucketWidth(chartWidth)
  const answers = await Promise.all(tags.map((tag) => fetchScalarBuckets(trainId, tag, { width })))
  return answers.map((answer, index) => ({
    tag: tags[index],
    data: buildScalarSeries(bucketPoints(answer.buckets)).data,
  }))
}
