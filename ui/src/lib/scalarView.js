// The scalar page's view state <-> its URL query, so a link reproduces what the user sees.
// Besides the original's `train_id` and `summaryPath` (kept as they are), defaults are left out:
//   tags      selected tags (see tagQuery.js; absent = all)
//   filter    regular expression narrowing the tag list and the charts
//   smoothing 0..0.99 (absent = 0)
//   smoother  ema | time-ema | moving-average: the smoothing method (absent = ema, see smoothing.js)
//   xaxis     step | logstep | relative | absolute | scalar (absent = step); scalar: the value
//             of another scalar tag of the same job at each step is the x
//   xtag      the tag whose values are the x on the `scalar` axis
//   logy      tags whose chart has a logarithmic y axis (tag list)
//   page      chart page, from 1
//   synthesis present = synthesis mode; its value lists the (at most two) tags drawn together
//   synthlog  1 = the synthesis chart has logarithmic y axes
//   full      the tag whose chart is shown full screen ('' = the synthesis chart)
import { decodeTagList, encodeTagList } from './tagQuery.js'
import { DEFAULT_SMOOTHING_METHOD, clampSmoothing, smoothingMethod } from './smoothing.js'

export { CHARTS_PER_PAGE } from './scalarFirstCharts.js'

export const X_AXIS_TYPES = ['step', 'logstep', 'relative', 'absolute', 'scalar']
export const SYNTHESIS_TAGS = 2

function single(value) {
  if (Array.isArray(value)) return value.length ? single(value[value.length - 1]) : undefined
  return value === null || value === undefined ? undefined : String(value)
}

/** The view state a route query describes (train id excluded). */
export function readScalarView(query) {
  const xaxis = single(query.xaxis)
  const page = Number.parseInt(single(query.page) ?? '1', 10)
  const synthesis = single(query.synthesis)
  const logy = single(query.logy)
  const xTag = single(query.xtag) || null
  return {
    filter: single(query.filter) ?? '',
    smoothing: clampSmoothing(single(query.smoothing) ?? 0),
    smoothingMethod: smoothingMethod(single(query.smoother)),
    // The `scalar` axis without its tag is the step axis, its tag kept for when it is chosen again.
    xAxis: X_AXIS_TYPES.includes(xaxis) && (xaxis !== 'scalar' || xTag) ? xaxis : 'step',
    xTag,
    logY: logy ? decodeTagList(logy) : [],
    page: Number.isFinite(page) && page >= 1 ? page : 1,
    synthesis: synthesis === undefined ? null : decodeTagList(synthesis).slice(0, SYNTHESIS_TAGS),
    synthesisLogY: single(query.synthlog) === '1',
    fullscreen: single(query.full) ?? null,
  }
}

/** A new query: `query` with the view fields of `patch` applied, defaults removed. */
export function writeScalarView(query, patch) {
  const next = { ...query }
  const set = (key, value, isDefault) => {
    if (isDefault) delete next[key]
    else next[key] = value
  }
  if ('filter' in patch) set('filter', patch.filter, !patch.filter)
  if ('smoothing' in patch) {
    const smoothing = clampSmoothing(patch.smoothing)
    set('smoothing', String(smoothing), smoothing === 0)
  }
  if ('smoothingMethod' in patch) {
    const method = smoothingMethod(patch.smoothingMethod)
    set('smoother', method, method === DEFAULT_SMOOTHING_METHOD)
  }
  if ('xTag' in patch) set('xtag', patch.xTag ?? '', !patch.xTag)
  if ('xAxis' in patch) set('xaxis', patch.xAxis, !X_AXIS_TYPES.includes(patch.xAxis) || patch.xAxis === 'step')
  if ('logY' in patch) set('logy', encodeTagList(patch.logY), !patch.logY.length)
  if ('page' in patch) set('page', String(patch.page), !(patch.page > 1))
  if ('synthesis' in patch) {
    set('synthesis', patch.synthesis ? encodeTagList(patch.synthesis.slice(0, SYNTHESIS_TAGS)) : '', !patch.synthesis)
  }
  if ('synthesisLogY' in patch) set('synthlog', '1', !patch.synthesisLogY)
  if ('fullscreen' in patch) set('full', patch.fullscreen ?? '', patch.fullscreen === null)
  return next
}
