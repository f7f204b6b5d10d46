// The step selection beside the loss landscape: the training's loss curve with the chosen
// interval shaded. An interval is numbered in the landscape's unit (epochs or steps).

/** The id of the chosen interval: `asked` (the URL's) when the job has it, else the first one's. */
export function chosenInterval(intervals, asked) {
  return intervals.some((item) => item.id === asked) ? asked : intervals[0]?.id || ''
}

/** `[firstStep, lastStep]` covered by an interval `{value: [first, last]}`. */
export function intervalSteps(interval, metadata) {
  if (!interval) return null
  const [first, last] = interval.value
  if (metadata?.unit === 'epoch' && metadata.step_per_epoch) {
    const per = metadata.step_per_epoch
    return [(first - 1) * per, last * per]
  }
  return [first, last]
}

/** The small loss chart: `points` `[{step, value}]`, the interval shaded. */
export function lossCurveOption(points, range, labels) {
  return {
    animation: false,
    grid: { left: 40, right: 16, top: 16, bottom: 28 },
    xAxis: { type: 'value', name: labels.step, nameLocation: 'middle', nameGap: 20, min: 'dataMin', max: 'dataMax' },
    yAxis: { type: 'value', scale: true },
    series: [
      {
        id: 'loss',
        type: 'line',
        showSymbol: false,
        data: points.map((point) => [point.step, point.value]),
        lineStyle: { width: 1.5 },
        markArea: range
          ? {
              silent: true,
              itemStyle: { color: 'rgba(245,108,108,0.25)' },
              data: [[{ xAxis: range[0] }, { xAxis: range[1] }]],
            }
          : undefined,
      },
    ],
  }
}
