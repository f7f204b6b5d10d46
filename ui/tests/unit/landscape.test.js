import { describe, expect, it } from 'vitest'
import {
  contourLevels,
  DEFAULT_SETTINGS,
  contourRings,
  isolineOption,
  landscapeGrid,
  landscapePalette,
  levelLegend,
  fitDistance,
  refineGrid,
  surfaceLayout,
  surfaceOption,
  topographicOption,
  trackPoints,
  trackPosition,
} from '@/lib/landscape.js'
import { chosenInterval, intervalSteps, lossCurveOption } from '@/lib/landscapeSteps.js'
import { chosenLandscapeRuns, landscapesByRun } from '@/lib/compareLandscapes.js'

// A bowl: z = x² + y² on a 5 x 5 grid from -1 to 1, its minimum in the middle.
const AXIS = [-1, -0.5, 0, 0.5, 1]
const BOWL = {
  train_id: './a',
  points: { x: AXIS, y: AXIS, z: AXIS.map((y) => AXIS.map((x) => x * x + y * y)) },
  path: { x: [1, 0.5, 0], y: [1, 0.5, 0], z: [2, 0.5, 0], intervals: [1, 2, 3] },
  convergence_point: [0, 0, 0],
}

describe('landscape grid', () => {
  it('reads vectors and meshgrids alike', () => {
    const grid = landscapeGrid(BOWL.points)
    expect(grid).toMatchObject({ xs: AXIS, ys: AXIS, min: 0, max: 2 })
    const mesh = landscapeGrid({ x: AXIS.map(() => AXIS), y: AXIS.map((y) => AXIS.map(() => y)), z: BOWL.points.z })
    expect(mesh.xs).toEqual(AXIS)
    expect(mesh.ys).toEqual(AXIS)
  })

  it('refines the grid bilinearly, keeping the samples', () => {
    const { values, width, height } = refineGrid(
      [
        [0, 1],
        [2, 3],
      ],
      2,
    )
    expect([width, height]).toEqual([3, 3])
    expect([...values]).toEqual([0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3])
  })

  it('puts contour levels strictly between min and max', () => {
    expect(contourLevels(0, 2, 3)).toEqual([0.5, 1, 1.5])
  })

  it('finds the ring around the minimum of a bowl, in data coordinates', () => {
    // The region at or above 0.5: the grid's border with a hole around the minimum.
    const [contour] = contourRings(landscapeGrid(BOWL.points), [0.5])
    expect(contour.level).toBe(0.5)
    expect(contour.rings).toHaveLength(2)
    const hole = contour.rings.find((ring) => ring.every(([x, y]) => Math.abs(x) < 1 && Math.abs(y) < 1))
    for (const [x, y] of hole) expect(Math.abs(x * x + y * y - 0.5)).toBeLessThan(0.1)
  })
})

describe('landscape options', () => {
  const labels = { start: 'Start', end: 'End', loss: 'loss' }

  it('draws one line per contour level, the track with its ends, and opens rings along the border', () => {
    const option = isolineOption(BOWL, { colors: 'jet', contourLines: 4, trackColor: '#000', trackWidth: 2 }, labels)
    const lines = option.series.filter((series) => series.type === 'line' && series.id !== 'track')
    expect(lines).toHaveLength(4)
    const track = option.series.find((series) => series.id === 'track')
    expect(track.data.map((point) => point.slice(0, 2))).toEqual([
      [1, 1],
      [0.5, 0.5],
      [0, 0],
    ])
    expect(track.markPoint.data.map((mark) => mark.name)).toEqual(['Start', 'End'])
    // The highest level crosses the grid's border: its line is cut there, not drawn along it.
    const outer = lines[lines.length - 1].data
    const onBorder = ([x, y]) => x !== null && (Math.abs(x) === 1 || Math.abs(y) === 1)
    for (let index = 1; index < outer.length; index += 1) {
      expect(onBorder(outer[index - 1]) && onBorder(outer[index]) && outer[index - 1][0] === outer[index][0]).toBe(
        false,
      )
    }
  })

  it('fills bands for the topographic map', () => {
    const option = topographicOption(
      BOWL,
      { colors: 'viridis', contourLines: 3, trackColor: '#000', trackWidth: 2 },
      labels,
    )
    expect(option.series.find((series) => series.type === 'custom').data).toHaveLength(4)
  })

  it('draws a surface with the track, or several surfaces with their convergence points', () => {
    const settings = {
      colors: 'jet',
      opacity: 0.5,
      illumination: 1,
      lightAlpha: 0,
      lightBeta: 0,
      trackColor: '#f00',
      trackWidth: 3,
      viewAlpha: 10,
      viewBeta: 20,
    }
    const single = surfaceOption(BOWL, settings, labels)
    expect(single.series.map((series) => series.type)).toEqual(['surface', 'line3D', 'scatter3D', 'scatter3D'])
    expect(single.series[0].data).toHaveLength(25)
    expect(single.series[0].data[1]).toEqual([-0.5, -1, 1.25])
    expect(single.series[0].itemStyle.opacity).toBe(0.5)
    const { path, ...final } = BOWL
    expect(path).toBeTruthy()
    const overlay = surfaceOption([final, { ...final, train_id: './b' }], settings, labels)
    expect(overlay.series.map((series) => series.type)).toEqual(['surface', 'surface', 'scatter3D'])
    // An overlay colours each training and names it in a legend, in place of the loss colours.
    expect(overlay.visualMap).toBeUndefined()
    expect(overlay.legend.data.map((item) => item.name)).toEqual(['./a', './b'])
    expect(overlay.series[0].itemStyle.color).not.toBe(overlay.series[1].itemStyle.color)
    expect(overlay.legend.data[1].itemStyle.color).toBe(overlay.series[1].itemStyle.color)
    expect(trackPoints(undefined)).toEqual([])
  })

  it('fits the 3-D box into the chart: camera further back only for narrow viewports', () => {
    expect(fitDistance(954, 628)).toBe(260)
    expect(fitDistance(484, 324)).toBe(260)
    const narrow = fitDistance(340, 324)
    expect(narrow).toBeGreaterThan(260)
    expect(fitDistance(300, 324)).toBeGreaterThan(narrow)
    expect(fitDistance(100, 324)).toBe(1000)
    expect(fitDistance(0, 0)).toBe(260)
  })

  it('keeps the colour legend beside a wide 3-D view and under a narrow one', () => {
    const wide = surfaceLayout({ width: 1030, height: 628 })
    expect(wide.viewport).toEqual({ left: 0, top: 0, width: 954, height: 628 })
    expect(wide.legend).toMatchObject({ right: 4, bottom: 8 })
    const narrow = surfaceLayout({ width: 340, height: 380 })
    expect(narrow.viewport).toEqual({ left: 0, top: 0, width: 340, height: 324 })
    expect(narrow.legend).toMatchObject({ orient: 'horizontal', left: 'center' })
    expect(narrow.distance).toBe(fitDistance(340, 324))
    expect(surfaceLayout(null).viewport).toBe(null)
    const option = surfaceOption(BOWL, undefined, { loss: 'loss value' }, { size: { width: 340, height: 380 } })
    expect(option.grid3D).toMatchObject({ width: 340, height: 324 })
    expect(option.grid3D.viewControl.distance).toBe(narrow.distance)
    expect(option.grid3D.viewControl.maxDistance).toBeGreaterThanOrEqual(narrow.distance)
    // Label line boxes taller than the font: echarts-gl cuts each label's texture to it.
    for (const axis of [option.xAxis3D, option.yAxis3D, option.zAxis3D]) {
      expect(axis.axisLabel.lineHeight).toBeGreaterThan(axis.axisLabel.fontSize)
      expect(axis.nameTextStyle.lineHeight).toBeGreaterThan(axis.nameTextStyle.fontSize)
    }
    expect(option.zAxis3D.name).toBe('loss value')
    expect(option.zAxis3D.axisLabel.formatter(0.30000000000000004)).toBe('0.3')
  })
})

describe('legends, colours, toolbox and track animation', () => {
  it('labels the 3-D colour bar with the highest and lowest loss', () => {
    const option = surfaceOption(BOWL, undefined, { loss: 'loss value' }, { size: { width: 900, height: 600 } })
    expect(option.visualMap.text).toEqual(['loss value: 2', 'loss value: 0'])
    // The legend's column is as wide as its texts: the 3-D view leaves it that room.
    expect(option.grid3D.width).toBeLessThanOrEqual(900 - 'loss value: 2'.length * 7)
  })

  it('labels the 2-D legends with the contour levels, highest on top', () => {
    const settings = { ...DEFAULT_SETTINGS, contourLines: 3 }
    const isoline = isolineOption(BOWL, settings, { loss: 'loss value' }, { size: { width: 800, height: 600 } })
    const levels = contourLevels(0, 2, 3).map((level) => String(Number(level.toPrecision(3))))
    expect(isoline.visualMap.type).toBe('piecewise')
    expect(isoline.visualMap.pieces.map((piece) => piece.label)).toEqual(levels)
    const topographic = topographicOption(BOWL, settings, {}, { size: { width: 800, height: 600 } })
    expect(topographic.visualMap.pieces.map((piece) => piece.label)).toEqual(['0', ...levels])
  })

  it('keeps every k-th level label when the chart is too short for all', () => {
    const entries = Array.from({ length: 31 }, (_, index) => ({ level: index, value: index }))
    const legend = levelLegend(entries, 300, 'loss', landscapePalette('light'))
    const labelled = legend.pieces.filter((piece) => piece.label.trim())
    expect(labelled.length).toBeLessThan(31)
    expect(labelled.length * 14).toBeLessThanOrEqual(300)
    expect(legend.pieces.at(-1).label).toBe('30')
  })

  it('colours 3-D texts and lines for the dark theme', () => {
    const dark = landscapePalette('dark')
    const option = surfaceOption(BOWL, undefined, {}, { palette: dark })
    for (const axis of [option.xAxis3D, option.yAxis3D, option.zAxis3D]) {
      expect(axis.axisLabel.color).toBe(dark.text)
      expect(axis.nameTextStyle.color).toBe(dark.text)
    }
    expect(landscapePalette('light').text).not.toBe(dark.text)
  })

  it('adds the toolbox on request, and a point for the track animation', () => {
    const frame = { toolbox: { name: 'x', background: '#fff' } }
    for (const option of [surfaceOption(BOWL, undefined, {}, frame), isolineOption(BOWL, undefined, {}, frame)]) {
      expect(Object.keys(option.toolbox.feature)).toEqual(['saveAsImage', 'restore'])
      expect(option.series.find((series) => series.id === 'track-cursor').data).toEqual([])
    }
    expect(surfaceOption(BOWL).toolbox).toBeUndefined()
  })

  it('moves the animation point along the track, the same time per stretch', () => {
    const track = [
      [0, 0, 0],
      [2, 0, 2],
      [2, 4, 0],
    ]
    expect(trackPosition(track, 0)).toEqual([0, 0, 0])
    expect(trackPosition(track, 0.25)).toEqual([1, 0, 1])
    expect(trackPosition(track, 0.75)).toEqual([2, 2, 1])
    expect(trackPosition(track, 2)).toEqual([2, 4, 0])
    expect(trackPosition([], 0.5)).toBe(null)
  })
})

describe('step selection and comparison', () => {
  it("chooses the URL's interval when the job has it, else the first", () => {
    const intervals = [
      { id: 'a', value: [1, 4] },
      { id: 'b', value: [5, 8] },
    ]
    expect(chosenInterval(intervals, 'b')).toBe('b')
    expect(chosenInterval(intervals, 'gone')).toBe('a')
    expect(chosenInterval(intervals, undefined)).toBe('a')
    expect(chosenInterval([], 'b')).toBe('')
  })

  it('turns an epoch interval into steps', () => {
    expect(intervalSteps({ value: [1, 4] }, { unit: 'epoch', step_per_epoch: 30 })).toEqual([0, 120])
    expect(intervalSteps({ value: [10, 20] }, { unit: 'step' })).toEqual([10, 20])
    const option = lossCurveOption([{ step: 1, value: 2 }], [0, 120], { step: 's', loss: 'l' })
    expect(option.series[0].markArea.data).toEqual([[{ xAxis: 0 }, { xAxis: 120 }]])
  })

  it('chooses at most three trainings and marks those without a landscape', () => {
    expect(chosenLandscapeRuns(undefined, ['./a', './b', './c', './d'])).toEqual(['./a', './b', './c'])
    expect(chosenLandscapeRuns('./d,./a', ['./a', './b', './c', './d'])).toEqual(['./a', './d'])
    const answer = { landscapes: [BOWL, { error_code: '50545017', train_id: './b' }] }
    expect(landscapesByRun(['./a', './b'], answer)).toEqual({ './a': BOWL, './b': null })
  })
})
