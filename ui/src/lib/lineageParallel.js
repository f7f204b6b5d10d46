// The parallel-coordinates chart of the lineage pages: one axis per displayed column, one line per
// row. Numeric columns get a value axis, the others a category axis of their distinct values.

const LABEL_MAX = 18

function shortLabel(text) {
  const value = String(text)
  return value.length > LABEL_MAX ? `${value.slice(0, LABEL_MAX - 1)}…` : value
}

/** Axis name: the column's label (translated by `t` when it has a labelKey). */
export function columnLabel(column, t) {
  return column.labelKey ? t(column.labelKey) : column.label
}

/** Distinct non-empty values of a category column, in sorted order. */
function categories(column, rows) {
  const values = new Set()
  for (const row of rows) {
    const value = column.value(row)
    if (value !== null && value !== undefined && value !== '') values.add(String(value))
  }
  return [...values].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
}

/**
 * The ECharts option: `columns` are the displayed ones, `rows` those drawn; `colors` maps a row id
 * to its line colour (the tag colour when the row has one). A value missing in a row is drawn at
 * the bottom of a category axis as "-" and left out on a value axis.
 * @param {any[]} columns
 * @param {any[]} rows
 * @param {{t?: (key: string) => string, lineColor?: string, colors?: Record<string, string>}} [options]
 */
export function parallelOption(columns, rows, { t, lineColor = '#6c92fa', colors = {} } = {}) {
  const axes = columns.map((column, dim) => {
    const axis = {
      id: column.key,
      dim,
      name: shortLabel(columnLabel(column, t)),
      nameLocation: 'end',
      nameTextStyle: { fontSize: 11 },
      axisLabel: { fontSize: 10, formatter: (value) => shortLabel(value) },
      realtime: true,
    }
    if (column.numeric) return { ...axis, type: 'value', scale: true }
    return { ...axis, type: 'category', data: ['-', ...categories(column, rows)] }
  })
  const data = rows.map((row) => ({
    name: row.id,
    value: columns.map((column) => {
      const value = column.value(row)
      if (value === null || value === undefined || value === '') return column.numeric ? null : '-'
      return column.numeric ? value : String(value)
    }),
    lineStyle: colors[row.id] ? { color: colors[row.id], width: 2 } : undefined,
  }))
  return {
    animation: false,
    parallel: { left: 70, right: 90, top: 40, bottom: 24, parallelAxisDefault: { nameGap: 12 } },
    parallelAxis: axes,
    series: [
      {
        type: 'parallel',
        smooth: false,
        lineStyle: { color: lineColor, width: 1.5, opacity: 0.7 },
        inactiveOpacity: 0.06,
        activeOpacity: 1,
        emphasis: { disabled: true },
        data,
      },
    ],
  }
}

/** Ids of the rows inside every brushed range, from the series' active data indices. */
export function brushedIds(rows, activeIndices) {
  return new Set(activeIndices.map((index) => rows[index]?.id).filter(Boolean))
}
