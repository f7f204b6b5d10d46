// The ECharts option of a scalar chart: one tag, or two tags on two y axes ("synthesis"). Pure, so
// unit tests can check what is drawn: smoothing, axis types, zoom window, threshold highlight and
// the markers of non-finite values.
import { smoothValues } from './smoothing.js'
import { thresholdLines, thresholdSegments } from './scalarThreshold.js'
import { formatAxisValue, formatValue, formatWallTime } from './format.js'

export const THRESHOLD_COLOR = '#e8363b'
export const NON_FINITE_COLOR = '#e6a23c'
// Charts with more non-finite points than this list them in the notice only, not as lines.
const MAX_NON_FINITE_MARKERS = 50

/** Short names of non-finite kinds on the chart. */
export const NON_FINITE_SHORT = { NaN: 'NaN', Infinity: '+Inf', '-Infinity': '-Inf', null: '?' }

/** The x coordinate of a point for the chosen horizontal axis. */
export function xValue(xAxis, step, wallTime, firstWallTime) {
  if (xAxis === 'relative') return wallTime - firstWallTime
  if (xAxis === 'absolute') return wallTime * 1000
  return step
}

/** The earliest wall time of a series from buildScalarSeries (0 when it has none). */
export function firstWallTime(series) {
  const walls = (series?.data || []).map((point) => point[2]).filter(Number.isFinite)
  return walls.length ? Math.min(...walls) : 0
}

/**
 * The points of one tag as drawn: x, the drawable value (null for non-finite, and for values <= 0
 * on a log axis), the smoothed value, plus what the tooltip shows.
 * @param {{data: Array<[number, number|null, number, string|null]>}} series from buildScalarSeries
 * @param {{smoothing?: number, xAxis?: string, logY?: boolean, firstWallTime?: number}} [options]
 *   `firstWallTime`: where relative times start (default: the series' earliest), for a series
 *   that is only part of the tag's points
 */
export function prepareLine(series, { smoothing = 0, xAxis = 'step', logY = false, firstWallTime: first } = {}) {
  const data = series?.data || []
  const firstWall = first ?? firstWallTime(series)
  const drawable = data.map(([, value]) => (value !== null && (!logY || value > 0) ? value : null))
  const smoothed = smoothValues(drawable, smoothing)
  const points = data.map(([step, value, wallTime, kind], index) => ({
    x: xValue(xAxis, step, wallTime, firstWall),
    step,
    wallTime,
    relative: wallTime - firstWall,
    value,
    kind,
    drawn: drawable[index],
    smoothed: smoothed[index],
  }))
  return {
    points,
    nonFinite: points.filter((point) => point.kind),
    dropped: logY ? data.filter(([, value]) => value !== null && value <= 0).length : 0,
    maxValue: Math.max(-Infinity, ...data.map(([, value]) => value).filter((value) => value !== null)),
  }
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/** The tooltip's HTML: one row per tag with run, tag, smoothed value, value, step and times. */
export function tooltipHtml(rows, labels, { smoothing }) {
  const head = [labels.run, labels.tag, ...(smoothing > 0 ? [labels.smoothed] : []), labels.value, labels.step]
  head.push(labels.relativeTime, labels.absoluteTime)
  const body = rows.map(({ color, run, tag, point }) => {
    const shown = point.kind ? labels.kind(point.kind) : formatValue(point.value)
    const smoothedText = point.kind ? '-' : point.smoothed === null ? '-' : formatValue(point.smoothed)
    const values = [run, tag, ...(smoothing > 0 ? [smoothedText] : []), shown, point.step]
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

function xAxisOption(xAxis, range) {
  return {
    type: xAxis === 'absolute' ? 'time' : 'value',
    scale: xAxis === 'absolute',
    minInterval: xAxis === 'step' ? 1 : undefined,
    min: range ? range[0] : undefined,
    max: range ? range[1] : undefined,
    splitLine: { show: true },
    axisLabel: {
      hideOverlap: true,
      ...(xAxis === 'relative' ? { formatter: (value) => `${formatAxisValue(value)}s` } : {}),
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
 * @param {object} params
 * @param {Array<{tag:string, run:string, line:ReturnType<typeof prepareLine>, threshold?:object|null, color?:string}>} params.lines
 * @param {number} [params.smoothing] the smoothing weight, 0..1
 * @param {string} [params.xAxis] 'step', 'relative' or 'absolute'
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
      data: line.points.map((point) => [point.x, point[field]]),
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
    if (threshold) series.push(thresholdSeries(line, index, threshold, logY))
  })
  const count = sharedAxis ? 1 : lines.length
  return {
    // Drawn at once, as on the dashboard: an entry animation only delays the finished chart.
    animation: false,
    grid: { left: 12, right: count > 1 ? 12 : 28, top: count > 1 ? 44 : 24, bottom: 8, containLabel: true },
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
        return rows.length ? tooltipHtml(rows, labels, { smoothing }) : ''
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
    xAxis: xAxisOption(xAxis, zoom?.x),
    yAxis: sharedAxis
      ? [yAxisOption({ index: 0, count, logY, range: zoom?.y?.[0], name: '' })]
      : lines.map(({ tag }, index) =>
          yAxisOption({ index, count, logY, range: zoom?.y?.[index], name: tag, color: lineColor(index) }),
        ),
    series,
  }
}
