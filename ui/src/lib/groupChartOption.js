// The ECharts option of a chart of run groups (lib/runGroups.js): per group its centre line and,
// below it, its band, drawn as a lower edge plus the band's height stacked on it with an area fill
// (ECharts fills between stacked lines). Pure, so tests can check what is drawn.
import { formatAxisValue, formatValue } from './format.js'

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/**
 * @param {{groups: Array<{label: string, color: string, size: number, rows: Array<{step: number, center: number, low: number, high: number, count: number}>}>,
 *   xAxis?: string, logY?: boolean, labels: {group: string, runs: string, step: string, center: string, band: string}}} options
 */
export function buildGroupOption({ groups, xAxis = 'step', logY = false, labels }) {
  const logX = xAxis === 'logstep'
  const series = groups.flatMap((group, index) => {
    const rows = logX ? group.rows.filter((row) => row.step > 0) : group.rows
    const common = { type: 'line', symbol: 'none', animation: false, silent: true, stack: `band-${index}` }
    return [
      { ...common, id: `band-low-${index}`, data: rows.map((row) => [row.step, row.low]), lineStyle: { opacity: 0 } },
      {
        ...common,
        id: `band-${index}`,
        data: rows.map((row) => [row.step, row.high - row.low]),
        lineStyle: { opacity: 0 },
        areaStyle: { color: group.color, opacity: 0.22 },
      },
      {
        id: `center-${index}`,
        name: group.label,
        type: 'line',
        symbol: 'none',
        animation: false,
        color: group.color,
        lineStyle: { color: group.color, width: 2 },
        data: rows.map((row) => [row.step, row.center]),
      },
    ]
  })
  return {
    animation: false,
    grid: { left: 12, right: 24, top: 16, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter(params) {
        const centers = (Array.isArray(params) ? params : [params]).filter((item) =>
          String(item.seriesId).startsWith('center-'),
        )
        if (!centers.length) return ''
        const head = [labels.group, labels.runs, labels.center, labels.band].map(
          (text) => `<th>${escapeHtml(text)}</th>`,
        )
        const body = centers.map((item) => {
          const group = groups[Number(String(item.seriesId).slice('center-'.length))]
          const row = group.rows.find((candidate) => candidate.step === item.value[0])
          if (!row) return ''
          const dot = `<span class="mi-tooltip-dot" style="background:${escapeHtml(group.color)}"></span>`
          const cells = [
            group.label,
            `${row.count}/${group.size}`,
            formatValue(row.center),
            `${formatValue(row.low)} – ${formatValue(row.high)}`,
          ]
          return `<tr>${cells.map((cell, column) => `<td>${column === 0 ? dot : ''}${escapeHtml(cell)}</td>`).join('')}</tr>`
        })
        const step = centers[0].value[0]
        return `<div>${escapeHtml(labels.step)} ${escapeHtml(step)}</div><table class="mi-tooltip-table"><thead><tr>${head.join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`
      },
    },
    xAxis: { type: logX ? 'log' : 'value', logBase: 10, scale: true, axisLabel: { formatter: formatAxisValue } },
    yAxis: { type: logY ? 'log' : 'value', logBase: 10, scale: true, axisLabel: { formatter: formatAxisValue } },
    series,
  }
}
