// /v1/mindinsight/datavisual/scalars/export (mindinsight/backend/api/scalar_export.py): every
// point of runs x scalar tags as a file. Apart from datavisual.js: only the scalar and comparison
// pages load it, never the dashboard's first chunk.
import { ApiError, answerError, apiUrl } from './http.js'

export const EXPORT_FORMATS = ['csv', 'json', 'parquet']

/**
 * The export's URL (a relative one, as every API URL: it works under any --url-path-prefix).
 * @param {string[]} trainIds
 * @param {string[]} tags
 * @param {string} format one of EXPORT_FORMATS
 */
export function exportUrl(trainIds, tags, format) {
  return apiUrl('datavisual/scalars/export', { train_id: trainIds, tag: tags, format })
}

/**
 * Whether the export can be made now: its point count, or the server's error as an ApiError
 * (a training still loading, Parquet without pyarrow...). A HEAD asks first, so no point is
 * formatted; only when it fails is the error's JSON asked for.
 * @returns {Promise<number>}
 */
export async function checkExport(trainIds, tags, format) {
  const url = exportUrl(trainIds, tags, format)
  try {
    const head = await fetch(url, { method: 'HEAD' })
    if (head.ok) return Number(head.headers.get('X-Export-Points'))
    const controller = new AbortController()
    const answer = await fetch(url, { signal: controller.signal, headers: { Accept: 'application/json' } })
    if (answer.ok) {
      controller.abort() // ready meanwhile: the download asks again
      return Number(answer.headers.get('X-Export-Points'))
    }
    let body = null
    try {
      body = await answer.json()
    } catch {
      // not the API's JSON: the status says enough
    }
    throw answerError(answer.status, body)
  } catch (error) {
    if (error instanceof ApiError) throw error
    throw new ApiError(error?.message || '', { network: true })
  }
}

/** Lets the browser download `url` (streamed to disk, never held in the page). */
export function download(url, filename) {
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  link.rel = 'noopener'
  document.body.appendChild(link)
  link.click()
  link.remove()
}
