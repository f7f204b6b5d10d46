// The loss landscape in three forms of the same grid (`points`: x, y and z with z[j][i] the loss at
// x[i], y[j]): a 3-D surface (echarts-gl), an isoline map and a topographic map (contours from
// d3-contour on the grid, refined by bilinear interpolation so the lines are smooth), each with
// the training track (`path`) and its start and end marked.
import { contours } from 'd3-contour'
import { formatAxisValue } from './format.js'

export const FORMS = ['isoline', 'topographic', '3d']

export const COLOR_SCHEMES = {
  jet: ['#00007f', '#0000ff', '#007fff', '#00ffff', '#7fff7f', '#ffff00', '#ff7f00', '#ff0000', '#7f0000'],
  viridis: ['#440154', '#472c7a', '#3b518b', '#2c718e', '#21908d', '#27ad81', '#5cc863', '#aadc32', '#fde725'],
  coolwarm: ['#3b4cc0', '#6788ee', '#9abbff', '#c9d7f0', '#edd1c2', '#f7a889', '#e26952', '#b40426'],
  grey: ['#1a1a1a', '#4d4d4d', '#808080', '#b3b3b3', '#e6e6e6'],
}

export const DEFAULT_SETTINGS = {
  colors: 'jet',
  opacity: 0.8,
  illumination: 1,
  lightAlpha: 20,
  lightBeta: -90,
  trackColor: '#000000',
  trackWidth: 4,
  contourLines: 10,
  viewAlpha: 25,
  viewBeta: 40,
}

/** `{xs, ys, z, min, max}` of a landscape's points (x and y as vectors or as meshgrids). */
export function landscapeGrid(points) {
  const xs = Array.isArray(points?.x?.[0]) ? points.x[0] : points?.x || []
  const ys = Array.isArray(points?.y?.[0]) ? points.y.map((row) => row[0]) : points?.y || []
  const z = points?.z || []
  const values = z.flat().filter(Number.isFinite)
  return { xs, ys, z, min: Math.min(...values), max: Math.max(...values) }
}

/** The track `[[x, y, z], ...]` of an interval landscape (none for a final one). */
export function trackPoints(path) {
  if (!path?.x?.length) return []
  return path.x.map((x, index) => [x, path.y[index], path.z[index]])
}

/** Contour levels: `count` values evenly between the grid's min and max (both excluded). */
export function contourLevels(min, max, count) {
  const step = (max - min) / (count + 1)
  return Array.from({ length: count }, (_, index) => min + step * (index + 1))
}

/** The grid refined `factor` times by bilinear interpolation: `{values (row-major), width, height}`. */
export function refineGrid(z, factor) {
  const rows = z.length
  const cols = z[0]?.length || 0
  const width = (cols - 1) * factor + 1
  const height = (rows - 1) * factor + 1
  const values = new Float64Array(width * height)
  for (let j = 0; j < height; j += 1) {
    const y = j / factor
    const j0 = Math.min(Math.floor(y), rows - 2)
    const ty = y - j0
    for (let i = 0; i < width; i += 1) {
      const x = i / factor
      const i0 = Math.min(Math.floor(x), cols - 2)
      const tx = x - i0
      const top = z[j0][i0] * (1 - tx) + z[j0][i0 + 1] * tx
      const bottom = z[j0 + 1][i0] * (1 - tx) + z[j0 + 1][i0 + 1] * tx
      values[j * width + i] = top * (1 - ty) + bottom * ty
    }
  }
  return { values, width, height }
}

function colorAt(scheme, fraction) {
  const colors = COLOR_SCHEMES[scheme] || COLOR_SCHEMES.jet
  const position = Math.max(0, Math.min(1, fraction)) * (colors.length - 1)
  return colors[Math.round(position)]
}

/**
 * Contours of the grid at `levels`: `[{level, rings: [[[x, y], ...], ...]}]` in data coordinates,
 * exterior rings and holes with opposite windings (so a nonzero fill leaves the holes open).
 */
export function contourRings(grid, levels, factor = 12) {
  if (grid.xs.length < 2 || grid.ys.length < 2) return []
  const { values, width, height } = refineGrid(grid.z, factor)
  const [x0, x1] = [grid.xs[0], grid.xs[grid.xs.length - 1]]
  const [y0, y1] = [grid.ys[0], grid.ys[grid.ys.length - 1]]
  // d3-contour puts sample k at the centre of cell [k, k+1]: k + 0.5 is the sample's position.
  const toX = (u) => x0 + (Math.min(Math.max(u - 0.5, 0), width - 1) / (width - 1)) * (x1 - x0)
  const toY = (v) => y0 + (Math.min(Math.max(v - 0.5, 0), height - 1) / (height - 1)) * (y1 - y0)
  return contours()
    .size([width, height])
    .thresholds(levels)(values)
    .map((contour) => ({
      level: contour.value,
      rings: contour.coordinates.flatMap((polygon) => polygon.map((ring) => ring.map(([u, v]) => [toX(u), toY(v)]))),
    }))
}

function trackSeries2d(track, settings, labels) {
  if (!track.length) return []
  const marks = [
    { name: labels.start, coord: track[0].slice(0, 2), value: labels.start },
    { name: labels.end, coord: track[track.length - 1].slice(0, 2), value: labels.end },
  ]
  return [
    {
      id: 'track',
      type: 'line',
      data: track.map(([x, y, z]) => [x, y, z]),
      symbol: 'circle',
      symbolSize: 7,
      z: 10,
      lineStyle: { color: settings.trackColor, width: settings.trackWidth },
      itemStyle: { color: '#f39c12' },
      markPoint: { symbolSize: 42, itemStyle: { color: '#f39c12' }, label: { fontSize: 10 }, data: marks },
    },
  ]
}

function axes2d(grid) {
  const axis = (values) => ({
    type: 'value',
    min: values[0],
    max: values[values.length - 1],
    axisLabel: { formatter: (value) => Number(value.toPrecision(3)) },
    splitLine: { show: false },
  })
  return { xAxis: axis(grid.xs), yAxis: axis(grid.ys) }
}

function legendMap(grid, settings, title) {
  return {
    type: 'continuous',
    min: grid.min,
    max: grid.max,
    precision: 3,
    right: 4,
    bottom: 8,
    itemHeight: 120,
    text: [title, ''],
    calculable: false,
    seriesIndex: 0,
    dimension: 2,
    inRange: { color: COLOR_SCHEMES[settings.colors] || COLOR_SCHEMES.jet },
  }
}

// A contour ring runs along the grid's border where the region touches it: an isoline is only
// its inner part, so the ring is cut wherever two consecutive points lie on the same border.
function openAtEdges(ring, grid) {
  const [x0, x1] = [grid.xs[0], grid.xs[grid.xs.length - 1]]
  const [y0, y1] = [grid.ys[0], grid.ys[grid.ys.length - 1]]
  const sameEdge = ([ax, ay], [bx, by]) =>
    (ax === bx && (ax === x0 || ax === x1)) || (ay === by && (ay === y0 || ay === y1))
  const points = []
  ring.forEach((point, index) => {
    if (index && sameEdge(ring[index - 1], point)) points.push([null, null])
    points.push(point)
  })
  return points
}

/** The isoline map: one coloured line series per contour level, plus the track. */
export function isolineOption(landscape, settings = DEFAULT_SETTINGS, labels = {}) {
  const grid = landscapeGrid(landscape.points)
  const levels = contourLevels(grid.min, grid.max, settings.contourLines)
  const span = grid.max - grid.min || 1
  const lines = contourRings(grid, levels).map(({ level, rings }) => ({
    type: 'line',
    name: `${Number(level.toPrecision(3))}`,
    data: rings.flatMap((ring) => [...openAtEdges(ring, grid), [null, null]]),
    showSymbol: false,
    connectNulls: false,
    silent: true,
    lineStyle: { width: 1.5, color: colorAt(settings.colors, (level - grid.min) / span) },
  }))
  return {
    ...mapFrame(grid, settings, labels),
    series: [gridPointsSeries(grid), ...lines, ...trackSeries2d(trackPoints(landscape.path), settings, labels)],
  }
}

// What the isoline and topographic maps share: the plot box, axes, tooltip and colour legend.
function mapFrame(grid, settings, labels) {
  return {
    animation: false,
    grid: { left: 56, right: 90, top: 20, bottom: 36 },
    tooltip: { trigger: 'item' },
    ...axes2d(grid),
    visualMap: legendMap(grid, settings, labels.loss || 'loss'),
  }
}

// The grid's samples as invisible points: the colour legend maps their loss.
function gridPointsSeries(grid) {
  const data = grid.ys.flatMap((y, j) => grid.xs.map((x, i) => [x, y, grid.z[j][i]]))
  return { id: 'grid', type: 'scatter', data, symbolSize: 0, silent: true }
}

/** The topographic map: filled bands (each level's region painted over the lower ones), plus the track. */
export function topographicOption(landscape, settings = DEFAULT_SETTINGS, labels = {}) {
  const grid = landscapeGrid(landscape.points)
  const levels = [grid.min, ...contourLevels(grid.min, grid.max, settings.contourLines)]
  const span = grid.max - grid.min || 1
  const bands = contourRings(grid, levels).map(({ level, rings }) => ({
    rings,
    color: colorAt(settings.colors, (level - grid.min) / span),
  }))
  return {
    ...mapFrame(grid, settings, labels),
    series: [
      gridPointsSeries(grid),
      {
        id: 'bands',
        type: 'custom',
        silent: true,
        data: bands.map((_, index) => index),
        renderItem: (params, api) => {
          const band = bands[params.dataIndex]
          const pathData = band.rings
            .map((ring) => `M${ring.map((point) => api.coord(point).join(' ')).join('L')}Z`)
            .join('')
          return { type: 'path', shape: { pathData }, style: { fill: band.color, stroke: 'rgba(0,0,0,0.15)' } }
        },
        z: 1,
      },
      ...trackSeries2d(trackPoints(landscape.path), settings, labels),
    ],
  }
}

function surfaceSeries(landscape, settings, id = 'surface', name = '') {
  const grid = landscapeGrid(landscape.points)
  return {
    id,
    name,
    type: 'surface',
    shading: 'lambert',
    wireframe: { show: true, lineStyle: { color: 'rgba(0,0,0,0.25)', width: 0.5 } },
    itemStyle: { opacity: settings.opacity },
    data: grid.ys.flatMap((y, j) => grid.xs.map((x, i) => [x, y, grid.z[j][i]])),
  }
}

// The 3-D view: echarts-gl's grid box (100 units a side by default) seen by a perspective camera
// whose vertical field of view is fixed. Measured at the default view angles: the box with its
// labels and names reaches furthest left of the viewport's centre (the z axis name there), by
// SCALED x height / distance px, which shrink as the camera backs off, plus FIXED px of text,
// which do not; below the centre it takes 0.4 of the height from FIT_DISTANCE on. The camera
// stands at FIT_DISTANCE, or further back when the left part needs it to fit (narrow charts).
const FIT_DISTANCE = 260
const MAX_DISTANCE = 1000
const SCALED = 95
const FIXED = 84
// The colour legend takes a column at the right of a wide chart and a strip under a narrow one
// (narrower than NARROW_CHART px); the 3-D viewport leaves that room.
const NARROW_CHART = 560
const LEGEND_COLUMN = 76
const LEGEND_STRIP = 56
// echarts-gl draws each label into a texture cut to the line box: with a line box of the font
// size the tops of the glyphs were cut off ("loss value" read "ioss vaiue").
const LABEL_TEXT = { fontSize: 12, lineHeight: 20 }
const NAME_TEXT = { fontSize: 13, lineHeight: 22 }

/** Camera distance at which the 3-D box with its labels fits a viewport of `width` x `height`. */
export function fitDistance(width, height) {
  if (!(width > 0 && height > 0)) return FIT_DISTANCE
  const room = width / 2 - FIXED
  const needed = room > 0 ? (SCALED * height) / room : MAX_DISTANCE
  return Math.round(Math.min(MAX_DISTANCE, Math.max(FIT_DISTANCE, needed)))
}

/** The 3-D viewport and colour legend of a chart of `size` px (echarts' defaults without one). */
export function surfaceLayout(size) {
  if (!(size?.width > 0 && size?.height > 0)) {
    return { viewport: null, legend: { right: 4, bottom: 8, itemHeight: 120 }, distance: FIT_DISTANCE }
  }
  const { width, height } = size
  const wide = width >= NARROW_CHART
  const viewport = wide
    ? { left: 0, top: 0, width: width - LEGEND_COLUMN, height }
    : { left: 0, top: 0, width, height: Math.max(1, height - LEGEND_STRIP) }
  const legend = wide
    ? { right: 4, bottom: 8, itemHeight: Math.max(40, Math.min(120, height - 90)) }
    : { orient: 'horizontal', left: 'center', bottom: 6, itemHeight: Math.max(40, Math.min(200, width - 140)) }
  return { viewport, legend, distance: fitDistance(viewport.width, viewport.height) }
}

function axis3d(name) {
  return {
    type: 'value',
    name,
    nameGap: 24,
    nameTextStyle: NAME_TEXT,
    axisLabel: { ...LABEL_TEXT, formatter: (value) => formatAxisValue(value) },
  }
}

/**
 * The 3-D surface (several for an overlay of trainings, `landscapes` an array), with the track of
 * an interval landscape and the convergence point of a final one. `size` (`{width, height}` of
 * the chart in px) fits the box and the colour legend into the panel.
 */
export function surfaceOption(landscapes, settings = DEFAULT_SETTINGS, labels = {}, size = null) {
  const list = Array.isArray(landscapes) ? landscapes : [landscapes]
  const grids = list.map((item) => landscapeGrid(item.points))
  const min = Math.min(...grids.map((grid) => grid.min))
  const max = Math.max(...grids.map((grid) => grid.max))
  /** @type {object[]} */
  const series = list.map((item, index) => surfaceSeries(item, settings, `surface-${index}`, item.train_id || ''))
  const track = list.length === 1 ? trackPoints(list[0].path) : []
  if (track.length) {
    series.push({
      id: 'track',
      type: 'line3D',
      data: track,
      lineStyle: { color: settings.trackColor, width: settings.trackWidth },
    })
    series.push({
      id: 'track-ends',
      type: 'scatter3D',
      symbolSize: 12,
      itemStyle: { color: settings.trackColor },
      label: { show: true, formatter: (params) => params.name, textStyle: { ...LABEL_TEXT, color: '#333' } },
      data: [
        { name: labels.start || 'Start', value: track[0], symbol: 'rect' },
        { name: labels.end || 'End', value: track[track.length - 1], symbol: 'triangle' },
      ],
    })
  } else {
    const points = list.map((item) => item.convergence_point).filter((point) => Array.isArray(point))
    if (points.length) {
      series.push({
        id: 'convergence',
        type: 'scatter3D',
        symbolSize: 10,
        itemStyle: { color: '#e6553a' },
        label: {
          show: list.length === 1,
          formatter: () => labels.convergence || '',
          textStyle: { ...LABEL_TEXT, color: '#e6553a' },
        },
        data: points,
      })
    }
  }
  const { viewport, legend, distance } = surfaceLayout(size)
  return {
    tooltip: {},
    visualMap: {
      show: true,
      type: 'continuous',
      min,
      max,
      precision: 3,
      ...legend,
      text: [labels.loss || 'loss', ''],
      seriesIndex: list.map((_, index) => index),
      dimension: 2,
      inRange: { color: COLOR_SCHEMES[settings.colors] || COLOR_SCHEMES.jet },
    },
    xAxis3D: axis3d('x'),
    yAxis3D: axis3d('y'),
    zAxis3D: axis3d(labels.loss || 'loss'),
    grid3D: {
      ...viewport,
      viewControl: {
        alpha: settings.viewAlpha,
        beta: settings.viewBeta,
        distance,
        maxDistance: Math.max(400, distance * 2),
      },
      light: {
        main: { intensity: settings.illumination, alpha: settings.lightAlpha, beta: settings.lightBeta },
        ambient: { intensity: 0.5 },
      },
    },
    series,
  }
}

/** The option of one form (`size` of the chart in px fits the 3-D form into it). */
export function landscapeOption(form, landscape, settings, labels, size = null) {
  if (form === 'isoline') return isolineOption(landscape, settings, labels)
  if (form === 'topographic') return topographicOption(landscape, settings, labels)
  return surfaceOption(landscape, settings, labels, size)
}
