// Histogram samples of one tag -> the data of a distribution chart.
//
// The server answers `[{step, wall_time, buckets: [[left, width, count], ...]}]`, every step re-binned
// onto one common grid. A "ridge" is one step drawn as a curve through the bucket centres, closed
// with a zero count at the outer bucket edges so the filled area sits on its baseline.
// "front" overlays every ridge on one count axis; "top" stacks them along the vertical axis
// (step, relative or absolute time), each ridge raised above its own baseline by its counts.

export const VIEWS = ['front', 'top']
export const AXES = ['step', 'relative', 'absolute']
export const DEFAULT_VIEW = 'top'
export const DEFAULT_AXIS = 'step'

// Oldest step dark, newest light, as in the original.
export const GRADIENTS = {
  light: { oldest: '#346e69', newest: '#ebfffd', stroke: '#bbbbbb', highlight: '#000000' },
  dark: { oldest: '#0b3d3e', newest: '#3fb8ba', stroke: '#6b7078', highlight: '#ffffff' },
}

function finite(value) {
  const number = Number(value)
  return Number.isFinite(number) ? number : null
}

/**
 * @param {Array<{step:number, wall_time:number, buckets:Array<[number, number, number]>}>} histograms
 * @returns {{ridges: Array<{step:number, wallTime:number, relative:number, points:Array<[number, number]>, buckets:Array<[number, number, number]>}>,
 *   minX:number, maxX:number, maxCount:number}} ridges sorted by step; `points` are [x, count].
 */
export function buildRidges(histograms) {
  const usable = (Array.isArray(histograms) ? histograms : [])
    .filter((item) => item && finite(item.step) !== null && Array.isArray(item.buckets))
    .map((item) => ({
      step: Number(item.step),
      wallTime: finite(item.wall_time) ?? 0,
      buckets: item.buckets.filter(
        (bucket) => Array.isArray(bucket) && bucket.slice(0, 3).every((part) => finite(part) !== null),
      ),
    }))
    .filter((item) => item.buckets.length)
    .sort((a, b) => a.step - b.step)
  const firstWallTime = usable.length ? Math.min(...usable.map((item) => item.wallTime)) : 0
  let minX = Infinity
  let maxX = -Infinity
  let maxCount = 0
  const ridges = usable.map((item) => {
    const buckets = [...item.buckets].sort((a, b) => a[0] - b[0])
    const first = buckets[0]
    const last = buckets[buckets.length - 1]
    /** @type {[number, number][]} */
    const points = [[Number(first[0]), 0]]
    for (const [left, width, count] of buckets) {
      points.push([Number(left) + Number(width) / 2, Number(count)])
      maxCount = Math.max(maxCount, Number(count))
    }
    points.push([Number(last[0]) + Number(last[1]), 0])
    minX = Math.min(minX, points[0][0])
    maxX = Math.max(maxX, points[points.length - 1][0])
    return { step: item.step, wallTime: item.wallTime, relative: item.wallTime - firstWallTime, points, buckets }
  })
  if (!ridges.length) return { ridges, minX: 0, maxX: 1, maxCount: 0 }
  if (minX === maxX) maxX = minX + 1
  return { ridges, minX, maxX, maxCount }
}

/** The vertical position of a ridge in the top view: step, seconds since the first sample, or epoch ms. */
export function ridgeY(ridge, axis) {
  if (axis === 'relative') return ridge.relative
  if (axis === 'absolute') return ridge.wallTime * 1000
  return ridge.step
}

function hexToRgb(hex) {
  const value = hex.replace('#', '')
  return [0, 2, 4].map((offset) => parseInt(value.slice(offset, offset + 2), 16))
}

/** `count` colours from `from` to `to` (hex), evenly spaced; one colour is `from`. */
export function gradient(count, from, to) {
  const start = hexToRgb(from)
  const end = hexToRgb(to)
  return Array.from({ length: count }, (_, index) => {
    const ratio = count > 1 ? index / (count - 1) : 0
    const rgb = start.map((channel, i) => Math.round(channel + (end[i] - channel) * ratio))
    return `#${rgb.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`
  })
}

/** Count of a ridge at `x`, interpolated linearly between its points (0 outside). */
export function countAt(ridge, x) {
  const points = ridge.points
  if (!points.length || x < points[0][0] || x > points[points.length - 1][0]) return 0
  for (let index = 1; index < points.length; index += 1) {
    const [x1, y1] = points[index]
    if (x <= x1) {
      const [x0, y0] = points[index - 1]
      return x1 === x0 ? y1 : y0 + ((y1 - y0) * (x - x0)) / (x1 - x0)
    }
  }
  return 0
}

/** The bucket of a ridge that holds `x` (the nearest one when `x` falls outside), or null. */
export function bucketAt(ridge, x) {
  let best = null
  let bestDistance = Infinity
  for (const bucket of ridge.buckets) {
    const [left, width] = bucket
    if (x >= left && x <= left + width) return bucket
    const distance = Math.min(Math.abs(x - left), Math.abs(x - left - width))
    if (distance < bestDistance) {
      best = bucket
      bestDistance = distance
    }
  }
  return best
}

/**
 * Index of the ridge whose curve passes nearest to the pointer. `curvePixelY(index, count)` maps a
 * ridge's count at the pointer's x to a pixel row; ties go to the later (front) ridge.
 */
export function nearestRidge(ridges, x, pointerY, curvePixelY) {
  let best = -1
  let bestDistance = Infinity
  ridges.forEach((ridge, index) => {
    const distance = Math.abs(curvePixelY(index, countAt(ridge, x)) - pointerY)
    if (distance <= bestDistance) {
      best = index
      bestDistance = distance
    }
  })
  return best
}

/** Top view: the plot starts this far down the chart; the tallest ridge rises into the space above it. */
export const TOP_VIEW_GRID_TOP = 0.42
const RIDGE_RISE = 0.96 // of that space

/** Pixels a count raises its ridge above the baseline in the top view of a chart `height` px tall. */
export function ridgeRise(count, maxCount, height) {
  return maxCount > 0 ? (count / maxCount) * height * TOP_VIEW_GRID_TOP * RIDGE_RISE : 0
}

/**
 * The ECharts option of a distribution chart. `formatX`/`formatY` format axis labels; `colors`
 * is one of GRADIENTS. The custom series (top view) draws every ridge as a filled polygon.
 */
export function buildDistributionOption({ ridges, minX, maxX, maxCount }, { view, axis, colors, formatX, formatY }) {
  if (!ridges.length) return { animation: false, xAxis: { show: false }, yAxis: { show: false }, series: [] }
  const fills = gradient(ridges.length, colors.oldest, colors.newest)
  const xAxis = {
    type: 'value',
    min: minX,
    max: maxX,
    axisLine: { onZero: false },
    axisLabel: { fontSize: 11, formatter: formatX, hideOverlap: true },
    splitLine: { show: false },
  }
  if (view === 'front') {
    return {
      animation: false,
      grid: { left: 24, right: 56, top: 40, bottom: 32 },
      xAxis,
      yAxis: {
        type: 'value',
        position: 'right',
        min: 0,
        axisLabel: { fontSize: 11, formatter: formatY },
        splitLine: { show: true },
      },
      series: ridges.map((ridge, index) => ({
        id: `ridge-${ridge.step}`,
        name: String(ridge.step),
        type: 'line',
        data: ridge.points.slice(1, -1),
        showSymbol: false,
        silent: true,
        lineStyle: { width: 1, color: fills[index] },
        itemStyle: { color: fills[index] },
      })),
    }
  }
  const values = ridges.map((ridge) => ridgeY(ridge, axis))
  const minY = Math.min(...values)
  const maxY = Math.max(...values)
  const pad = minY === maxY ? 1 : 0
  return {
    animation: false,
    grid: { left: 24, right: axis === 'absolute' ? 96 : 56, top: `${TOP_VIEW_GRID_TOP * 100}%`, bottom: 32 },
    xAxis,
    yAxis: {
      type: axis === 'absolute' ? 'time' : 'value',
      position: 'right',
      inverse: true,
      min: minY - pad,
      max: maxY + pad,
      axisLine: { show: false },
      axisTick: { show: false },
      splitLine: { show: false },
      axisLabel: { fontSize: 11, formatter: formatY, hideOverlap: true },
    },
    series: [
      {
        id: 'ridges',
        type: 'custom',
        silent: true,
        clip: false,
        // [x inside the axis range, vertical position, ridge index]
        data: ridges.map((ridge, index) => [minX, ridgeY(ridge, axis), index]),
        renderItem: (params, api) => {
          const index = api.value(2)
          const ridge = ridges[index]
          const height = api.getHeight()
          const points = ridge.points.map(([x, count]) => {
            const [px, py] = api.coord([x, api.value(1)])
            return [px, py - ridgeRise(count, maxCount, height)]
          })
          return {
            type: 'polygon',
            z2: index,
            shape: { points },
            style: { fill: fills[index], stroke: colors.stroke, lineWidth: 1 },
          }
        },
      },
    ],
  }
}
