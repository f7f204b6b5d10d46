// The ECharts option of a scalar chart: one tag, or two tags on two y axes ("synthesis"). Pure, so
// unit tests can check what is drawn: smoothing, axis types, zoom window, threshold highlight and
// the markers of non-finite values.
import { smoothSeries } from './smoothing.js'
import { thresholdLines, thresholdSegments } from './scalarThreshold.js'
import { formatAxisValue, formatValue, formatWallTime } from './format.js'

export const THRESHOLD_COLOR = '#e8363b'
export const NON_FINITE_COLOR = '#e6a23c'
// Charts with more non-finite points than this list them in the notice only, not as lines.
const MAX_NON_FINITE_MARKERS = 50

/** Short names of non-finite kinds on the chart. */
export const NON_FINITE_SHORT = { NaN: 'NaN', Infinity: '+Inf', '-Infinity': '-Inf', null: '?' }

/**
 * The x coordinate of a point for the chosen horizontal axis, or null when the point has none:
 * a step <= 0 on the log step axis, a step where the x tag (`xValues`: step -> its value) has no
 * finite value on the `scalar` axis.
 */
export function xValue(xAxis, step, wallTime, firstWallTime, xValues) {
  if (xAxis === 'relative') return wallTime - firstWallTime
  if (xAxis === 'absolute') return wallTime * 1000
  if (xAxis === 'logstep') return step > 0 ? step : null
  if (xAxis === 'scalar') {
    const value = xValues?.get(step)
    return Number.isFinite(value) ? value : null
  }
  return step
}

/** Step -> finite value of a series from buildScalarSeries: the x of the `scalar` axis. */
export function valuesByStep(series) {
  const values = new Map()
  for (const [step, value] of series?.data || []) if (value !== null) values.set(step, value)
  return values
}

/** The step span (last - first) of a series from buildScalarSeries, 0 when it has no point. */
export function stepSpan(series) {
  const data = series?.data || []
  return data.length ? data[data.length - 1][0] - data[0][0] : 0
}

/** The earliest wall time of a series from buildScalarSeries (0 when it has none). */
export function firstWallTime(series) {
  let first = Infinity
  for (const point of series?.data || []) if (Number.isFinite(point[2]) && point[2] < first) first = point[2]
  return first === Infinity ? 0 : first
}

/**
 * The points of one tag as drawn: x, the drawable value (null for non-finite, and for values <= 0
 * on a log axis), the smoothed value, plus what the tooltip shows. The smoothing runs over every
 * point in step order; points without an x on the chosen axis are then left out (`droppedX`).
 * @param {{data: Array<[number, number|null, number, string|null]>}} series from buildScalarSeries
 * @param {{smoothing?: number, smoothingMethod?: string, unit?: number, xAxis?: string, logY?: boolean,
 *   firstWallTime?: number, xValues?: Map<number, number>}} [options]
 *   `smoothingMethod`, `unit`: see smoothing.js; `firstWallTime`: where relative times start
 *   (default: the series' earliest), for a series that is only part of the tag's points;
 *   `xValues`: step -> x on the `scalar` axis (valuesByStep of the x tag)
 */
export function prepareLine(
  series,
  {
    smoothing = 0,
    smoothingMethod = 'ema',
    unit = 1,
    xAxis = 'step',
    logY = false,
    firstWallTime: first,
    xValues,
  } = {},
) {
  // Plain loops over the rows: a comparison prepares 100 lines of 1,000 points before its first
  // drawing, and each intermediate array per line is garbage the page then waits for.
  const data = series?.data || []
  const firstWall = first ?? firstWallTime(series)
  const count = data.length
  const steps = new Array(count)
  const drawable = new Array(count)
  let maxValue = -Infinity
  let dropped = 0
  for (let index = 0; index < count; index += 1) {
    const [step, value] = data[index]
    steps[index] = step
    drawable[index] = value !== null && (!logY || value > 0) ? value : null
    if (value === null) continue
    if (value > maxValue) maxValue = value
    if (logY && value <= 0) dropped += 1
  }
  const smoothed = smoothSeries(smoothingMethod, steps, drawable, smoothing, unit)
  const points = []
  const nonFinite = []
  for (let index = 0; index < count; index += 1) {
    const [step, value, wallTime, kind] = data[index]
    const x = xValue(xAxis, step, wallTime, firstWall, xValues)
    if (x === null) continue
    const point = {
      x,
      step,
      wallTime,
      relative: wallTime - firstWall,
      value,
      kind,
      drawn: drawable[index],
      smoothed: smoothed[index],
    }
    points.push(point)
    if (kind) nonFinite.push(point)
  }
  return { points, droppedX: count - points.length, nonFinite, dropped, maxValue }
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/**
 * The tooltip's HTML: one row per tag with run, tag, smoothed value, value, step, the x tag's
 * value when `xName` names one (the `scalar` axis) and times.
 */
export function tooltipHtml(rows, labels, { smoothing, xName = null }) {
  const head = [labels.run, labels.tag, ...(smoothing > 0 ? [labels.smoothed] : []), labels.value, labels.step]
  if (xName) head.push(xName)
  head.push(labels.relativeTime, labels.absoluteTime)
  const body = rows.map(({ color, run, tag, point }) => {
    const shown = point.kind ? labels.kind(point.kind) : formatValue(point.value)
    const smoothedText = point.kind ? '-' : point.smoothed === null ? '-' : formatValue(point.smoothed)
    const values = [run, tag, ...(smoothing > 0 ? [smoothedText] : []), shown, point.step]
    if (xName) values.push(formatValue(point.x))
    // A point of the buckets that the sample lacks has no known time.
    const timed = Number.isFinite(point.wallTime)
    values.push(timed ? `${Number(point.relative.toFixed(3))}s` : '-', timed ? formatWallTime(point.wallTime) : '-')
    const dot = `<span class="mi-tooltip-dot" style="background:${escapeHtml(color)}"></span>`
    const tds = values.map((item, column) => `<td>${column === 0 ? dot : ''}${escapeHtml(item)}</td>`).join('')
    return `<tr${point.kind ? ' class="mi-tooltip-invalid"' : ''}>${tds}</tr>`
  })
  return `<table class="mi-tooltip-table"><thead><tr>${head.map((item) => `<th>${escapeHtml(item)}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`
}

/** @param {{index: number, count: number, logY: boolean, range?: number[] | null, name: string, color?: string}} axis */
function yAxisOption({ index, count, logY, range, name, color }) {
  return {
    type: logY ? 'log' : 'value',
    logBase: 10,
    scale: true,
    position: index === 0 ? 'left' : 'right',
    name: count > 1 ? name : undefined,
    nameLocation: 'end',
    nameTextStyle: count > 1 ? { fontWeight: 'bold', color, align: index === 0 ? 'left' : 'right' } : undefined,
    min: range ? range[0] : undefined,
    max: range ? range[1] : undefined,
    axisLabel: { formatter: formatAxisValue },
    splitLine: { show: index === 0 },
  }
}

const X_AXIS_KIND = { absolute: 'time', logstep: 'log' }

/** @param {string} xAxis @param {number[]|null|undefined} range @param {string|null} name the x tag */
function xAxisOption(xAxis, range, name) {
  return {
    type: X_AXIS_KIND[xAxis] || 'value',
    logBase: 10,
    // Another tag's values (an epoch, tokens seen) rarely start at 0: the axis fits them.
    scale: xAxis === 'absolute' || xAxis === 'scalar',
    name: name || undefined,
    nameLocation: 'middle',
    nameGap: 22,
    minInterval: xAxis === 'step' ? 1 : undefined,
    min: range ? range[0] : undefined,
    max: range ? range[1] : undefined,
    splitLine: { show: true },
    axisLabel: {
      hideOverlap: true,
      ...(xAxis === 'relative' ? { formatter: (value) => `${formatAxisValue(value)}s` } : {}),
      ...(xAxis === 'scalar' || xAxis === 'logstep' ? { formatter: formatAxisValue } : {}),
    },
  }
}

const NON_FINITE_LABEL_POSITION = { Infinity: 'end', NaN: 'insideStartTop', '-Infinity': 'insideStartBottom' }

function nonFiniteMarkLine(line) {
  if (!line.nonFinite.length || line.nonFinite.length > MAX_NON_FINITE_MARKERS) return undefined
  return {
    silent: true,
    symbol: ['none', 'none'],
    animation: false,
    lineStyle: { type: 'dashed', color: NON_FINITE_COLOR, width: 1 },
    label: { position: 'end', color: NON_FINITE_COLOR, fontSize: 10, formatter: (item) => item.name },
    // +Inf is labelled above the plot; NaN and -Inf inside it along the foot of their line, on
    // either side of it, clear of the step labels under the axis and of each other.
    data: line.nonFinite.map((point) => ({
      xAxis: point.x,
      name: NON_FINITE_SHORT[point.kind] || point.kind,
      label: { position: NON_FINITE_LABEL_POSITION[point.kind] || 'insideStartTop' },
    })),
  }
}

function thresholdSeries(line, index, threshold, logY) {
  const points = line.points.map((point) => [point.x, point.smoothed])
  const transform = logY ? Math.log10 : undefined
  const inverse = logY ? (value) => 10 ** value : undefined
  const { data } = thresholdSegments(points, threshold, { transform, inverse })
  // A point inside the threshold between two gaps is a run of one point: a line cannot show it,
  // so it gets a dot (every other point a dot of size 0).
  const isLone = (k) => data[k] && !data[k - 1] && !data[k + 1]
  return {
    id: `threshold-${index}`,
    type: 'line',
    yAxisIndex: index,
    data: data.map((point, k) => (isLone(k) ? { value: point, symbolSize: 5 } : point)),
    showSymbol: true,
    symbol: 'circle',
    symbolSize: 0,
    connectNulls: false,
    silent: true,
    z: 4,
    lineStyle: { color: THRESHOLD_COLOR, width: 2 },
    itemStyle: { color: THRESHOLD_COLOR },
    tooltip: { show: false },
    markLine: {
      silent: true,
      symbol: ['circle', 'arrow'],
      symbolSize: 6,
      animation: false,
      lineStyle: { type: 'dashed', color: '#6c7fd8', width: 1 },
      label: {
        position: 'end',
        color: '#6c7fd8',
        textBorderWidth: 0,
        formatter: (item) => formatAxisValue(item.value),
      },
      data: thresholdLines(threshold)
        .filter((value) => !logY || value > 0)
        .map((value) => ({ yAxis: value })),
    },
  }
}

/**
 * A line's points as ECharts reads them fastest: one flat typed array `[x0, y0, x1, y1, ...]`
 * (a series with `dimensions: ['x', 'y']`). ECharts copies it in one go where it would clone an
 * array per point, which took about a third of drawing 100 runs; a gap (null) becomes NaN, which
 * ECharts leaves undrawn as it does null.
 * @param {Array<{x: number} & Record<string, any>>} points prepareLine's points
 * @param {string} field the value drawn
 * @returns {Float64Array}
 */
/**
 * The points of `field` a line cannot show, as flat `[x, y, NaN, NaN, ...]` pairs (as `xyPairs`): each finite
 * point whose neighbours are gaps (a tag of one step, a value between two NaN). Drawn as dots of
 * their own series (its pairs split by gaps, so no segment joins them).
 */
export function lonePairs(points, field) {
  const finite = (index) => Number.isFinite(points[index]?.[field])
  const pairs = []
  for (let index = 0; index < points.length; index += 1) {
    if (finite(index) && !finite(index - 1) && !finite(index + 1)) {
      pairs.push(points[index].x, points[index][field], NaN, NaN)
    }
  }
  return new Float64Array(pairs)
}

export function xyPairs(points, field) {
  const data = new Float64Array(points.length * 2)
  for (let index = 0; index < points.length; index += 1) {
    const value = points[index][field]
    data[2 * index] = points[index].x
    data[2 * index + 1] = value === null || value === undefined ? NaN : value
  }
  return data
}

/**
 * @param {object} params
 * @param {Array<{tag:string, run:string, line:ReturnType<typeof prepareLine>, threshold?:object|null, color?:string}>} params.lines
 * @param {number} [params.smoothing] the smoothing weight, 0..1
 * @param {string} [params.xAxis] 'step', 'logstep', 'relative', 'absolute' or 'scalar'
 * @param {string|null} [params.xName] the x tag of the `scalar` axis (its name on the axis and tooltip)
 * @param {boolean} [params.logY]
 * @param {{x?: number[]|null, y?: Array<number[]|null>}|null} params.zoom the current zoom window
 * @param {string[]} params.colors one colour per line (a line's own `color` wins)
 * @param {object} params.labels tooltip texts (run, tag, smoothed, value, step, relativeTime, absoluteTime, kind())
 * @param {boolean} params.sharedAxis every line on one y axis (one tag of several runs), named by the
 *   run; otherwise each line has its own y axis named by its tag (synthesis of two tags)
 */
export function buildScalarOption({
  lines,
  smoothing = 0,
  xAxis = 'step',
  xName = null,
  logY = false,
  zoom = null,
  colors,
  labels,
  sharedAxis = false,
}) {
  const series = []
  const lineColor = (index) => lines[index]?.color || colors[index % colors.length]
  lines.forEach(({ tag, run, line, threshold }, index) => {
    const color = lineColor(index)
    const name = sharedAxis ? run : tag
    const yAxisIndex = sharedAxis ? 0 : index
    // `kind` names the series and the point's field it draws ('drawn' for the raw line).
    const lineSeries = (kind, field, style) => ({
      id: `${kind}-${index}`,
      type: 'line',
      name,
      yAxisIndex,
      data: xyPairs(line.points, field),
      dimensions: ['x', 'y'],
      showSymbol: false,
      connectNulls: false,
      itemStyle: { color },
      ...style,
    })
    // While smoothing, the raw line stays faint under the smoothed one.
    if (smoothing > 0) {
      series.push(lineSeries('raw', 'drawn', { silent: true, z: 1, lineStyle: { color, width: 1, opacity: 0.28 } }))
    }
    series.push(
      lineSeries('smoothed', 'smoothed', { z: 2, lineStyle: { color, width: 1.5 }, markLine: nonFiniteMarkLine(line) }),
    )
    const lone = lonePairs(line.points, 'smoothed')
    if (lone.length) {
      series.push({
        id: `lone-${index}`,
        type: 'line',
        yAxisIndex,
        data: lone,
        dimensions: ['x', 'y'],
        connectNulls: false,
        showSymbol: true,
        symbol: 'circle',
        symbolSize: 5,
        silent: true,
        z: 3,
        itemStyle: { color },
        lineStyle: { width: 0 },
        tooltip: { show: false },
      })
    }
    if (threshold) series.push(thresholdSeries(line, index, threshold, logY))
  })
  const count = sharedAxis ? 1 : lines.length
  return {
    // Drawn at once, as on the dashboard: an entry animation only delays the finished chart.
    animation: false,
    // The x tag's name goes under the axis labels, outside what containLabel makes room for.
    grid: {
      left: 12,
      right: count > 1 ? 12 : 28,
      top: count > 1 ? 44 : 24,
      bottom: xAxis === 'scalar' && xName ? 28 : 8,
      containLabel: true,
    },
    tooltip: {
      trigger: 'axis',
      confine: true,
      className: 'mi-scalar-tooltip',
      axisPointer: { type: 'line', lineStyle: { type: 'dashed' } },
      formatter: (params) => {
        const rows = (Array.isArray(params) ? params : [params])
          .filter((item) => String(item.seriesId).startsWith('smoothed-'))
          .map((item) => {
            const index = Number(String(item.seriesId).slice('smoothed-'.length))
            const entry = lines[index]
            const point = entry?.line.points[item.dataIndex]
            return point && { color: lineColor(index), run: entry.run, tag: entry.tag, point }
          })
          .filter(Boolean)
        return rows.length ? tooltipHtml(rows, labels, { smoothing, xName: xAxis === 'scalar' ? xName : null }) : ''
      },
    },
    // The box zoom is driven by the chart's own buttons: no ECharts toolbox (brush would add one).
    toolbox: { show: false },
    brush: {
      toolbox: [],
      seriesIndex: [],
      brushType: 'rect',
      brushMode: 'single',
      transformable: false,
      removeOnClick: true,
      brushStyle: { borderWidth: 1, color: 'rgba(0,165,167,0.12)', borderColor: 'rgba(0,165,167,0.7)' },
      outOfBrush: { colorAlpha: 1 },
    },
    xAxis: xAxisOption(xAxis, zoom?.x, xAxis === 'scalar' ? xName : null),
    yAxis: sharedAxis
      ? [yAxisOption({ index: 0, count, logY, range: zoom?.y?.[0], name: '' })]
      : lines.map(({ tag }, index) =>
          yAxisOption({ index, count, logY, range: zoom?.y?.[index], name: tag, color: lineColor(index) }),
        ),
    series,
  }
}
