// The loss landscape in three forms of the same grid (`points`: x, y and z with z[j][i] the loss at
// x[i], y[j]): a 3-D surface (echarts-gl), an isoline map and a topographic map (contours from
// d3-contour on the grid, refined by bilinear interpolation so the lines are smooth), each with
// the training track (`path`) and its start and end marked.
import { contours } from 'd3-contour'
import { CHART_THEMES } from './echarts.js'
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

/**
 * The colours of the chart parts echarts' theme does not reach (echarts-gl's 3-D axes, labels
 * drawn in a fixed colour) in the app's theme (`'light'` or `'dark'`).
 */
export function landscapePalette(theme) {
  const chart = CHART_THEMES[theme === 'dark' ? 'dark' : 'light']
  return {
    text: chart.textStyle.color,
    subtle: chart.valueAxis.axisLabel.color,
    axis: chart.valueAxis.axisLine.lineStyle.color,
    split: chart.valueAxis.splitLine.lineStyle.color,
    series: chart.color,
  }
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

/** A legend value: 3 significant digits, as the maps' axes. */
export function levelText(value) {
  return String(Number(Number(value).toPrecision(3)))
}

const LEVEL_ITEM = 14 // px of a legend entry at most, its label's line included
const LEVEL_GAP = 2

/**
 * The colour legend of a 2-D map: one entry per colour drawn, `{value | min, max, color}`, the
 * lowest first, each labelled with its contour level. When the chart is too short for a label
 * per entry, only every k-th entry (and the top one) keeps its label.
 */
export function levelLegend(entries, height, title, palette) {
  const room = Math.max(60, (height || 400) - 100)
  const step = Math.min(LEVEL_ITEM, room / entries.length)
  const every = Math.ceil(LEVEL_ITEM / step)
  const labelled = (index) => index === entries.length - 1 || (entries.length - 1 - index) % every === 0
  return {
    type: 'piecewise',
    right: 4,
    bottom: 8,
    itemWidth: 16,
    itemHeight: Math.max(3, step - LEVEL_GAP),
    itemGap: LEVEL_GAP,
    itemSymbol: 'rect',
    selectedMode: false,
    showLabel: true,
    text: [title, ''],
    textGap: 6,
    textStyle: { color: palette.text, fontSize: 11 },
    seriesIndex: 0,
    dimension: 2,
    pieces: entries.map((entry, index) => ({
      ...entry,
      label: labelled(index) ? levelText(entry.level) : ' ',
    })),
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

// Legend entries of ascending `levels`: each from its level up to the next one (the last one open).
function levelEntries(levels, colorOf) {
  return levels.map((level, index) => ({
    level,
    min: level,
    ...(index < levels.length - 1 ? { max: levels[index + 1] } : {}),
    color: colorOf(level),
  }))
}

/** The isoline map: one coloured line series per contour level, plus the track. */
export function isolineOption(landscape, settings = DEFAULT_SETTINGS, labels = {}, frame = {}) {
  const grid = landscapeGrid(landscape.points)
  const levels = contourLevels(grid.min, grid.max, settings.contourLines)
  const span = grid.max - grid.min || 1
  const colorOf = (level) => colorAt(settings.colors, (level - grid.min) / span)
  const lines = contourRings(grid, levels).map(({ level, rings }) => ({
    type: 'line',
    name: levelText(level),
    data: rings.flatMap((ring) => [...openAtEdges(ring, grid), [null, null]]),
    showSymbol: false,
    connectNulls: false,
    silent: true,
    lineStyle: { width: 1.5, color: colorOf(level) },
  }))
  // One legend entry per line; a grid sample between two levels takes the lower one's.
  const entries = levelEntries(levels, colorOf)
  return {
    ...mapFrame(grid, entries, labels, frame),
    series: [
      gridPointsSeries(grid),
      ...lines,
      ...trackSeries2d(trackPoints(landscape.path), settings, labels),
      cursorSeries('scatter', settings),
    ],
  }
}

// What the isoline and topographic maps share: the plot box, axes, tooltip, colour legend and toolbox.
function mapFrame(grid, entries, labels, frame) {
  const palette = frame.palette || landscapePalette('light')
  return {
    animation: false,
    grid: { left: 56, right: 96, top: frame.toolbox ? 36 : 20, bottom: 36 },
    tooltip: { trigger: 'item' },
    ...axes2d(grid),
    visualMap: levelLegend(entries, frame.size?.height, labels.loss || 'loss', palette),
    ...toolbox(frame, labels),
  }
}

/**
 * The chart toolbox (save as image, restore the first view) when `frame.toolbox` is set:
 * `{name, background}` name the image file and fill its transparent background.
 */
function toolbox(frame, labels) {
  if (!frame.toolbox) return {}
  return {
    toolbox: {
      right: 8,
      top: 4,
      itemSize: 14,
      feature: {
        saveAsImage: {
          title: labels.saveImage || 'Save as image',
          name: frame.toolbox.name || 'loss-landscape',
          backgroundColor: frame.toolbox.background || '#ffffff',
          pixelRatio: 2,
        },
        restore: { title: labels.restore || 'Restore' },
      },
    },
  }
}

/** The point that runs along the track while its animation plays (empty until then). */
function cursorSeries(type, settings) {
  return {
    id: 'track-cursor',
    type,
    data: [],
    symbolSize: 16,
    silent: true,
    z: 20,
    itemStyle: { color: '#f39c12', borderColor: settings.trackColor, borderWidth: 2, opacity: 1 },
  }
}

/**
 * Where the track's animation is at `fraction` (0 to 1) of its run: each stretch between two
 * points of the track takes the same time. `null` without a track.
 */
export function trackPosition(track, fraction) {
  if (!track.length) return null
  const position = Math.max(0, Math.min(1, fraction)) * (track.length - 1)
  if (position >= track.length - 1) return track[track.length - 1].slice()
  const index = Math.floor(position)
  const t = position - index
  return track[index].map((value, axis) => value + (track[index + 1][axis] - value) * t)
}

// The grid's samples as invisible points: the colour legend maps their loss.
function gridPointsSeries(grid) {
  const data = grid.ys.flatMap((y, j) => grid.xs.map((x, i) => [x, y, grid.z[j][i]]))
  return { id: 'grid', type: 'scatter', data, symbolSize: 0, silent: true }
}

/** The topographic map: filled bands (each level's region painted over the lower ones), plus the track. */
export function topographicOption(landscape, settings = DEFAULT_SETTINGS, labels = {}, frame = {}) {
  const grid = landscapeGrid(landscape.points)
  const levels = [grid.min, ...contourLevels(grid.min, grid.max, settings.contourLines)]
  const span = grid.max - grid.min || 1
  const colorOf = (level) => colorAt(settings.colors, (level - grid.min) / span)
  const bands = contourRings(grid, levels).map(({ level, rings }) => ({ rings, color: colorOf(level) }))
  const entries = levelEntries(levels, colorOf)
  return {
    ...mapFrame(grid, entries, labels, frame),
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
      cursorSeries('scatter', settings),
    ],
  }
}

function surfaceSeries(landscape, settings, id = 'surface', name = '', color = undefined) {
  const grid = landscapeGrid(landscape.points)
  return {
    id,
    name,
    type: 'surface',
    shading: 'lambert',
    wireframe: { show: true, lineStyle: { color: 'rgba(0,0,0,0.25)', width: 0.5 } },
    itemStyle: { opacity: settings.opacity, ...(color ? { color } : {}) },
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

// Width in px of a legend text at 12 px: wide (CJK) characters take about twice a narrow one.
function textWidth(text) {
  return [...String(text)].reduce((width, char) => width + (char.charCodeAt(0) > 0x2e7f ? 12 : 7), 0)
}

const LEGEND_ROW = 30 // the overlay's legend of trainings above the 3-D view

/**
 * The 3-D viewport and colour legend of a chart of `size` px (echarts' defaults without one).
 * `ends` are the colour legend's texts (its column is as wide as they are), `top` px at the top
 * are left to a legend of trainings.
 */
export function surfaceLayout(size, ends = [], top = 0) {
  if (!(size?.width > 0 && size?.height > 0)) {
    return { viewport: null, legend: { right: 4, bottom: 8, itemHeight: 120 }, distance: FIT_DISTANCE }
  }
  const { width, height } = size
  const wide = width >= NARROW_CHART
  const text = Math.max(0, ...ends.map(textWidth))
  const column = Math.max(LEGEND_COLUMN, text + 16)
  const viewport = wide
    ? { left: 0, top, width: width - column, height: Math.max(1, height - top) }
    : { left: 0, top, width, height: Math.max(1, height - top - LEGEND_STRIP) }
  const legend = wide
    ? { right: 4, bottom: 8, itemHeight: Math.max(40, Math.min(120, height - top - 90)) }
    : {
        orient: 'horizontal',
        left: 'center',
        bottom: 6,
        itemHeight: Math.max(40, Math.min(200, width - 2 * text - 40)),
      }
  return { viewport, legend, distance: fitDistance(viewport.width, viewport.height) }
}

function axis3d(name, palette) {
  return {
    type: 'value',
    name,
    nameGap: 24,
    nameTextStyle: { ...NAME_TEXT, color: palette.text },
    axisLine: { lineStyle: { color: palette.subtle } },
    axisTick: { lineStyle: { color: palette.subtle } },
    splitLine: { lineStyle: { color: palette.split } },
    axisPointer: { lineStyle: { color: palette.text } },
    axisLabel: { ...LABEL_TEXT, color: palette.text, formatter: (value) => formatAxisValue(value) },
  }
}

// A loss axis starts at 0 (not at a rounded -0.1 below it) unless a loss is negative; its lowest
// label is left out: it stood on the x axis's first one at the box's corner ("-0.1" over "0").
function lossAxis3d(name, palette) {
  const axis = axis3d(name, palette)
  const formatter = (value, index) => (index === 0 ? '' : formatAxisValue(value))
  return { ...axis, min: (extent) => (extent.min >= 0 ? 0 : undefined), axisLabel: { ...axis.axisLabel, formatter } }
}

/**
 * The 3-D surface (several for an overlay of trainings, `landscapes` an array: each in its own
 * colour, named by a legend), with the track of an interval landscape and the convergence point
 * of a final one. `frame`: `size` (`{width, height}` of the chart in px) fits the box and the
 * colour legend into the panel, `palette` (landscapePalette) colours the texts and lines,
 * `toolbox` adds the chart's toolbox.
 */
export function surfaceOption(landscapes, settings = DEFAULT_SETTINGS, labels = {}, frame = {}) {
  const list = Array.isArray(landscapes) ? landscapes : [landscapes]
  const palette = frame.palette || landscapePalette('light')
  const overlay = list.length > 1
  const grids = list.map((item) => landscapeGrid(item.points))
  const min = Math.min(...grids.map((grid) => grid.min))
  const max = Math.max(...grids.map((grid) => grid.max))
  const colorOf = (index) => palette.series[index % palette.series.length]
  /** @type {object[]} */
  const series = list.map((item, index) =>
    surfaceSeries(item, settings, `surface-${index}`, item.train_id || '', overlay ? colorOf(index) : undefined),
  )
  const track = overlay ? [] : trackPoints(list[0].path)
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
      label: { show: true, formatter: (params) => params.name, textStyle: { ...LABEL_TEXT, color: palette.text } },
      data: [
        { name: labels.start || 'Start', value: track[0], symbol: 'rect' },
        { name: labels.end || 'End', value: track[track.length - 1], symbol: 'triangle' },
      ],
    })
    series.push(cursorSeries('scatter3D', settings))
  } else {
    const points = list.map((item) => item.convergence_point).filter((point) => Array.isArray(point))
    if (points.length) {
      series.push({
        id: 'convergence',
        type: 'scatter3D',
        symbolSize: 10,
        itemStyle: { color: '#e6553a' },
        label: {
          show: !overlay,
          formatter: () => labels.convergence || '',
          textStyle: { ...LABEL_TEXT, color: '#e6553a' },
        },
        data: points,
      })
    }
  }
  const loss = labels.loss || 'loss'
  // The colour bar's ends carry the highest and lowest loss; an overlay colours by training.
  const ends = overlay ? [] : [`${loss}: ${formatAxisValue(max)}`, `${loss}: ${formatAxisValue(min)}`]
  const { viewport, legend, distance } = surfaceLayout(frame.size, ends, overlay ? LEGEND_ROW : 0)
  return {
    tooltip: {},
    ...(overlay
      ? {
          legend: {
            type: 'scroll',
            top: 4,
            left: 8,
            right: frame.toolbox ? 72 : 8,
            textStyle: { color: palette.text },
            data: list.map((item, index) => ({ name: item.train_id || '', itemStyle: { color: colorOf(index) } })),
          },
        }
      : {
          visualMap: {
            show: true,
            type: 'continuous',
            min,
            max,
            precision: 3,
            ...legend,
            text: ends,
            textStyle: { color: palette.text },
            seriesIndex: list.map((_, index) => index),
            dimension: 2,
            inRange: { color: COLOR_SCHEMES[settings.colors] || COLOR_SCHEMES.jet },
          },
        }),
    ...toolbox(frame, labels),
    xAxis3D: axis3d('x', palette),
    yAxis3D: axis3d('y', palette),
    zAxis3D: lossAxis3d(loss, palette),
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

/** The camera of a 3-D option as first set: `{alpha, beta, distance, center}` (null in 2-D). */
export function optionCamera(option) {
  const view = option?.grid3D?.viewControl
  return view ? { alpha: view.alpha, beta: view.beta, distance: view.distance, center: [0, 0, 0] } : null
}

/**
 * The option of one form. `frame`: `size` of the chart in px (fits the 3-D form and the 2-D
 * legends into it), `palette` of the app's theme, `toolbox` (see surfaceOption).
 */
export function landscapeOption(form, landscape, settings, labels, frame = {}) {
  if (form === 'isoline') return isolineOption(landscape, settings, labels, frame)
  if (form === 'topographic') return topographicOption(landscape, settings, labels, frame)
  return surfaceOption(landscape, settings, labels, frame)
}
