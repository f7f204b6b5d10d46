// The operator statistics a profiler directory holds, per profiler type: the view of operator
// types and the view of single operators (`op_type` of profile/ops/search) and which of their
// columns hold the name, time, count and share. The server answers times in µs and shares in
// percent; the page shows milliseconds.
import { toCsv } from './csv.js'

export const VIEWS = {
  cpu: {
    type: {
      opType: 'cpu_op_type',
      name: 'op_type',
      time: 'total_compute_time',
      count: 'type_occurrences',
      share: 'total_time_proportion',
    },
    detail: {
      opType: 'cpu_op_info',
      name: 'op_name',
      type: 'op_type',
      time: 'op_total_time',
      avg: 'op_avg_time',
      count: 'op_occurrences',
      share: 'total_time_proportion',
      scope: 'full_op_name',
      info: ['op_side', 'subgraph'],
    },
  },
  gpu: {
    type: {
      opType: 'gpu_op_type',
      name: 'op_type',
      time: 'total_time',
      count: 'type_occurrences',
      share: 'proportion',
    },
    detail: {
      opType: 'gpu_op_info',
      name: 'op_name',
      type: 'op_type',
      time: 'op_total_time',
      avg: 'op_avg_time',
      count: 'op_occurrences',
      share: 'proportion',
      scope: 'op_full_name',
      info: ['op_side'],
    },
  },
  ascend: {
    type: {
      opType: 'aicore_type',
      name: 'op_type',
      time: 'total_time',
      count: 'execution_frequency',
      share: 'percent',
    },
    detail: {
      opType: 'aicore_detail',
      name: 'op_name',
      type: 'op_type',
      time: 'avg_execution_time',
      avg: 'avg_execution_time',
      count: 'execution_frequency',
      share: null,
      scope: 'full_op_name',
      info: [],
    },
  },
}

export const TOP_TYPES = 20

/** The views of a profiler type (`cpu`, `gpu`; anything else is Ascend). */
export function viewsOf(profilerType) {
  return VIEWS[profilerType] || VIEWS.ascend
}

const ms = (us) => (typeof us === 'number' ? Number((us / 1000).toFixed(4)) : null)

function records(answer) {
  const names = answer?.col_name || []
  return (answer?.object || []).map((row) => Object.fromEntries(names.map((name, index) => [name, row[index]])))
}

/** Rows of the type view: `{type, timeMs, count, share}`. */
export function typeRows(answer, view) {
  return records(answer).map((row) => ({
    type: row[view.name],
    timeMs: ms(row[view.time]),
    count: row[view.count] ?? null,
    share: row[view.share] ?? null,
  }))
}

/** Rows of the operator view: `{name, type, timeMs, avgMs, count, share, scope, info}`. */
export function detailRows(answer, view) {
  return records(answer).map((row) => ({
    name: row[view.name],
    type: row[view.type],
    timeMs: ms(row[view.time]),
    avgMs: ms(row[view.avg]),
    count: row[view.count] ?? null,
    share: view.share ? (row[view.share] ?? null) : null,
    scope: row[view.scope] ?? '',
    info: view.info
      .map((name) => row[name])
      .filter((value) => value !== undefined && value !== null && value !== '')
      .join(' · '),
  }))
}

// Table columns (the page's names) -> the view's column for sorting on the server.
const SORT_FIELDS = {
  type: 'name',
  name: 'name',
  timeMs: 'time',
  avgMs: 'avg',
  count: 'count',
  share: 'share',
  scope: 'scope',
}

/** The server column that sorts a table column, or null when the view has none. */
export function sortColumn(view, prop) {
  const field = SORT_FIELDS[prop]
  if (!field) return null
  if (prop === 'type' && view.type && view.type !== view.name) return view.type
  return view[field] || null
}

/** The search condition of one page of a view: optional name filter, sort, page (1-based). */
export function searchCondition(view, deviceId, { filters = {}, sort = null, page = 1, size = 10 } = {}) {
  const condition = {
    op_type: view.opType,
    device_id: String(deviceId),
    group_condition: { limit: size, offset: page - 1 },
  }
  const filterCondition = {}
  for (const [column, filter] of Object.entries(filters)) if (filter) filterCondition[column] = filter
  if (Object.keys(filterCondition).length) condition.filter_condition = filterCondition
  if (sort?.name) condition.sort_condition = sort
  return condition
}

// One colour per operator type among the top 20 (a type keeps its colour in the pie and the bars,
// given by its rank): ten hues, then ten more set apart in lightness, every pair well apart
// (CIE76 distance >= 13). The light set stays dark enough for a white card, the dark set bright
// enough for the dark one.
export const TYPE_COLORS = {
  light: [
    '#4e79a7',
    '#f28e2b',
    '#e15759',
    '#00a5a7',
    '#59a14f',
    '#c9a200',
    '#b07aa1',
    '#e377c2',
    '#9c755f',
    '#7f7f7f',
    '#1f3f8f',
    '#c84b00',
    '#2e7d32',
    '#7b3fb5',
    '#b0104f',
    '#8c8c00',
    '#5fa8e8',
    '#6b3e26',
    '#006d6f',
    '#ff8a80',
  ],
  dark: [
    '#6c9bd8',
    '#f7a150',
    '#f07375',
    '#1fc6c8',
    '#7cc36f',
    '#f0d04a',
    '#c99ac0',
    '#ff9fd5',
    '#c89878',
    '#b0b0b0',
    '#9fb8ff',
    '#ffc79a',
    '#b8e986',
    '#b18cff',
    '#ff6f9c',
    '#d7d35a',
    '#5ad2f4',
    '#e0e0e0',
    '#6fe0c8',
    '#8080ff',
  ],
}
const SLICE_BORDER = { light: '#ffffff', dark: '#2a2a2b' }

/** The colour of the operator type ranked `index` (0-based) in the theme's set. */
export function typeColor(index, theme = 'light') {
  const colors = TYPE_COLORS[theme === 'dark' ? 'dark' : 'light']
  return colors[index % colors.length]
}

// On a narrow screen the page makes the chart taller (TALL_CHART px and more, see OperatorPage.vue)
// and the pie is on top with its legend below it in rows; otherwise (a chart 576 px wide or more)
// the legend is a column on the right, its names cut at LEGEND_TEXT px, and the pie stays left of it.
const TALL_CHART = 500
const LEGEND_COLORS = {
  light: { text: '#303133', icon: '#2f4554', inactive: '#c0c4cc' },
  dark: { text: '#d0d3d9', icon: '#d0d3d9', inactive: '#5b6069' },
}
const LEGEND_TEXT = 170
const NARROW_LEGEND_TEXT = 118

/**
 * Pie or bar option of the operator types' times (ms), with each one's share in the tooltip; every
 * type has its own colour (`theme`: light or dark).
 */
export function topTypesOption(rows, chartType, labels, theme = 'light') {
  const border = SLICE_BORDER[theme === 'dark' ? 'dark' : 'light']
  // The legend's names in the page's text colour (the chart library's default is dim on dark).
  const legendText = LEGEND_COLORS[theme === 'dark' ? 'dark' : 'light']
  const data = rows.map((row, index) => ({
    name: row.type,
    value: row.timeMs,
    share: row.share,
    itemStyle: { color: typeColor(index, theme) },
  }))
  const tooltip = {
    trigger: 'item',
    formatter: (params) => {
      const share = params.data?.share
      const shareText = share === null || share === undefined ? '' : `<br>${labels.share}: ${Number(share).toFixed(2)}%`
      return `${params.name}<br>${labels.time}: ${params.value}${shareText}`
    },
  }
  if (chartType === 'bar') {
    return {
      animation: false,
      tooltip,
      grid: { left: 12, right: 24, top: 16, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: data.map((item) => item.name), axisLabel: { rotate: 40, fontSize: 10 } },
      yAxis: { type: 'value', name: labels.time },
      series: [{ type: 'bar', data, barMaxWidth: 22 }],
    }
  }
  return {
    baseOption: {
      animation: false,
      tooltip,
      legend: {
        type: 'scroll',
        orient: 'vertical',
        right: 8,
        top: 'middle',
        textStyle: { fontSize: 11, width: LEGEND_TEXT, overflow: 'truncate', color: legendText.text },
        pageTextStyle: { color: legendText.text },
        pageIconColor: legendText.icon,
        pageIconInactiveColor: legendText.inactive,
        tooltip: { show: true },
      },
      series: [
        {
          type: 'pie',
          radius: ['0%', '68%'],
          center: ['35%', '50%'],
          label: { show: false },
          itemStyle: { borderColor: border, borderWidth: 1 },
          data,
        },
      ],
    },
    media: [
      {
        query: { minHeight: TALL_CHART },
        option: {
          legend: {
            type: 'plain',
            orient: 'horizontal',
            left: 'center',
            right: 'auto',
            top: 290,
            width: '96%',
            itemGap: 6,
            textStyle: { fontSize: 11, width: NARROW_LEGEND_TEXT, overflow: 'truncate', color: legendText.text },
          },
          series: [{ radius: [0, 120], center: ['50%', 140] }],
        },
      },
    ],
  }
}

/** CSV of operator rows with the given header texts. */
export function operatorsCsv(rows, header) {
  return toCsv(
    header,
    rows.map((row) => [row.name, row.type, row.timeMs, row.avgMs, row.count, row.share, row.scope, row.info]),
  )
}

/** CSV of type rows with the given header texts. */
export function typesCsv(rows, header) {
  return toCsv(
    header,
    rows.map((row) => [row.type, row.timeMs, row.count, row.share]),
  )
}
