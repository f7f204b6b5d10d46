// The optimization-objective panel of the model lineage page, from `optimizer/targets/search`:
// the chosen target's value distribution (pie of its buckets), each hyper-parameter's importance
// for it (bars, the chosen one red) and a scatter of one hyper-parameter against the target.

const ROUND = (value) => Number(Number(value).toPrecision(4))

/** Hyper-parameters with an importance (those the server could not rate are left out), most important first. */
export function rankedParameters(target) {
  return (target?.hyper_parameters || [])
    .filter((item) => item.reason_code === undefined)
    .sort((a, b) => b.importance - a.importance)
}

// The legend's names and the bars' values in the page's text colour (the chart library's defaults
// are dim on dark, and outline the values: hollow digits on the dark background).
const PAGE_TEXT = { light: '#303133', dark: '#d0d3d9' }
const pageText = (theme) => PAGE_TEXT[theme === 'dark' ? 'dark' : 'light']

/** Pie option of a target's buckets `[start, width, count]` (`theme`: light or dark). */
export function distributionOption(target, theme = 'light') {
  const data = (target?.buckets || []).map(([start, width, count]) => ({
    name: `${ROUND(start)}~${ROUND(start + width)}`,
    value: count,
  }))
  return {
    animation: false,
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: {
      orient: 'vertical',
      left: 0,
      top: 'middle',
      textStyle: { fontSize: 11, color: pageText(theme) },
    },
    series: [{ type: 'pie', radius: ['0%', '62%'], center: ['68%', '50%'], label: { show: false }, data }],
  }
}

/**
 * Horizontal bars of the ranked parameters; `chosen` is drawn red. `label(name)` is the name shown
 * for a parameter (the bars keep the server's names, which a click hands back).
 */
export function importanceOption(
  parameters,
  chosen,
  { accent = '#6c92fa', danger = '#e6553a', label = (name) => name, theme = 'light' } = {},
) {
  const ordered = [...parameters].reverse()
  return {
    animation: false,
    grid: { left: 110, right: 48, top: 8, bottom: 24 },
    tooltip: { trigger: 'item', formatter: (params) => `${label(params.name)}: ${ROUND(params.value)}` },
    xAxis: { type: 'value', min: 0, max: 1 },
    yAxis: {
      type: 'category',
      data: ordered.map((item) => item.name),
      axisLabel: { width: 100, overflow: 'truncate', formatter: (name) => label(name) },
    },
    series: [
      {
        type: 'bar',
        barMaxWidth: 14,
        label: {
          show: true,
          position: 'right',
          color: pageText(theme),
          textBorderWidth: 0,
          formatter: (params) => ROUND(params.value),
        },
        data: ordered.map((item) => ({
          value: item.importance,
          itemStyle: { color: item.name === chosen ? danger : accent },
        })),
      },
    ],
  }
}

/** Points `[parameter, target]` of the jobs that have both, with each job's id. */
export function scatterPoints(metadata, target, parameterName) {
  const parameter = (metadata?.possible_hyper_parameters || []).find((item) => item.name === parameterName)
  const ids = metadata?.train_ids || []
  const points = []
  ids.forEach((id, index) => {
    const x = parameter?.data?.[index]
    const y = target?.data?.[index]
    if (typeof x === 'number' && typeof y === 'number') points.push({ value: [x, y], name: id })
  })
  return points
}

/** Scatter option of a parameter against the target. */
export function scatterOption(points, parameterName, targetName, { color = '#e6553a' } = {}) {
  return {
    animation: false,
    grid: { left: 56, right: 24, top: 28, bottom: 40 },
    tooltip: {
      trigger: 'item',
      formatter: (params) =>
        `${params.name}<br>${parameterName}: ${params.value[0]}<br>${targetName}: ${ROUND(params.value[1])}`,
    },
    xAxis: { type: 'value', scale: true, name: parameterName, nameLocation: 'middle', nameGap: 26 },
    yAxis: { type: 'value', scale: true, name: targetName },
    series: [{ type: 'scatter', symbolSize: 9, itemStyle: { color }, data: points }],
  }
}
