// Runs of the scalars comparison put into groups, and each group's curve: the mean or median of
// its runs at each step, with a band (standard deviation, standard error or min-max).
//
// Alignment: the runs of a group rarely log the same steps (one every 10 steps, another every 7,
// a resumed run with a gap). The group's curve is drawn at the union of its runs' steps; at each
// step a run counts with its value there, or the value linearly interpolated between its two
// nearest finite points around it. A run counts only within its own first..last finite step (no
// extrapolation), so a shorter run does not drag the tail of the curve. Bucketing by step would
// mix values of different steps into one and shift curves logged on different grids; the union
// keeps every run's own points exact. Non-finite values (NaN, Inf) are left out before
// interpolating: the run counts with the line through its finite neighbours.

/** How a group's centre is computed. */
export const AGGREGATES = ['mean', 'median']
/** How a group's band is computed. */
export const BANDS = ['std', 'sem', 'minmax']

/**
 * The grouping a `group` query value names: `hparam:<name>`, `tag:<tag>` (runs holding the tag
 * or not) or `regex:<pattern>`; null for none or a value of another kind.
 * @param {unknown} value
 * @returns {{kind: 'hparam'|'tag'|'regex', name: string}|null}
 */
export function parseGroupBy(value) {
  const text = typeof value === 'string' ? value : ''
  const match = /^(hparam|tag|regex):(.+)$/s.exec(text)
  return match ? { kind: /** @type {'hparam'|'tag'|'regex'} */ (match[1]), name: match[2] } : null
}

/** The `group` query value of a grouping (undefined for none). */
export function groupByToQuery(groupBy) {
  return groupBy ? `${groupBy.kind}:${groupBy.name}` : undefined
}

/** The RegExp of a pattern, or null when it is not a valid one. */
export function compileRegex(pattern) {
  try {
    return new RegExp(pattern)
  } catch {
    return null
  }
}

/**
 * The group key of a run name for a regular expression: the capture groups joined by "/" when
 * the pattern has any (`lr=([\d.]+)` groups by learning rate), else the name with every match
 * removed (`[-_]?seed\d+` puts the seeds of one configuration together). A name the pattern
 * does not match (with capture groups) is its own key.
 */
export function regexKey(name, regex) {
  const match = regex.exec(name)
  if (match && match.length > 1)
    return match
      .slice(1)
      .map((part) => part ?? '')
      .join('/')
  if (match)
    return name.replace(new RegExp(regex.source, regex.flags.includes('g') ? regex.flags : `${regex.flags}g`), '')
  return name
}

/** A hyper-parameter's value as a group key ("" when the run has none). */
function valueKey(value) {
  if (value === null || value === undefined) return ''
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/**
 * The runs in groups, in the order of their first run: `[{key, runs}]`.
 * @param {string[]} runs
 * @param {{kind: string, name: string}} groupBy
 * @param {{hparams?: (run: string) => Record<string, unknown>|undefined, hasTag?: (run: string, tag: string) => boolean}} sources
 * @returns {Array<{key: string, runs: string[]}>}
 */
export function groupRuns(runs, groupBy, { hparams = () => undefined, hasTag = () => false } = {}) {
  const regex = groupBy.kind === 'regex' ? compileRegex(groupBy.name) : null
  const keyOf = (run) => {
    if (groupBy.kind === 'hparam') return valueKey(hparams(run)?.[groupBy.name])
    if (groupBy.kind === 'tag') return hasTag(run, groupBy.name) ? 'yes' : 'no'
    return regex ? regexKey(run, regex) : run
  }
  const groups = new Map()
  for (const run of runs) {
    const key = keyOf(run)
    if (!groups.has(key)) groups.set(key, [])
    groups.get(key).push(run)
  }
  return [...groups].map(([key, members]) => ({ key, runs: members }))
}

/**
 * A run's finite points in step order: `{steps, values}` (one point per step, the last written).
 * @param {Array<[number, number|null]>} points [step, value]
 */
function finitePoints(points) {
  const byStep = new Map()
  for (const [step, value] of points) {
    if (Number.isFinite(step) && typeof value === 'number' && Number.isFinite(value)) byStep.set(step, value)
  }
  const steps = [...byStep.keys()].sort((a, b) => a - b)
  return { steps, values: steps.map((step) => byStep.get(step)) }
}

/** Values of a run at sorted `steps`: its own, interpolated, or NaN outside its first..last step. */
function valuesAt({ steps: own, values }, steps) {
  const out = new Float64Array(steps.length).fill(NaN)
  let k = 0
  for (let index = 0; index < steps.length; index += 1) {
    const step = steps[index]
    while (k < own.length && own[k] < step) k += 1
    if (k < own.length && own[k] === step) out[index] = values[k]
    else if (k > 0 && k < own.length) {
      const share = (step - own[k - 1]) / (own[k] - own[k - 1])
      out[index] = values[k - 1] + share * (values[k] - values[k - 1])
    }
  }
  return out
}

/** The median of sorted numbers. */
function medianOf(sorted) {
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * One value per step of a group: `{step, center, low, high, count}`, where `count` runs have a
 * value there. `center` is the mean or median; the band is centre ± the sample standard
 * deviation (n - 1; 0 for one run), centre ± the standard error (std / √n), or the min and max.
 * @param {Array<Array<[number, number|null]>>} runsPoints each run's [step, value] points
 * @param {{aggregate?: string, band?: string}} [options]
 * @returns {Array<{step: number, center: number, low: number, high: number, count: number}>}
 */
export function aggregateRuns(runsPoints, { aggregate = 'mean', band = 'std' } = {}) {
  const runs = runsPoints.map(finitePoints).filter((run) => run.steps.length)
  const steps = [...new Set(runs.flatMap((run) => run.steps))].sort((a, b) => a - b)
  const columns = runs.map((run) => valuesAt(run, steps))
  const rows = []
  for (let index = 0; index < steps.length; index += 1) {
    const present = []
    for (const column of columns) if (!Number.isNaN(column[index])) present.push(column[index])
    const count = present.length
    if (!count) continue
    const mean = present.reduce((sum, value) => sum + value, 0) / count
    const sorted = present.sort((a, b) => a - b)
    const center = aggregate === 'median' ? medianOf(sorted) : mean
    let low = sorted[0]
    let high = sorted[count - 1]
    if (band !== 'minmax') {
      const variance = count > 1 ? present.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (count - 1) : 0
      const spread = band === 'sem' ? Math.sqrt(variance / count) : Math.sqrt(variance)
      low = center - spread
      high = center + spread
    }
    rows.push({ step: steps[index], center, low, high, count })
  }
  return rows
}

// The model lineage fields that are settings of a training (not its results or sizes).
const HYPER_FIELDS = ['optimizer', 'learning_rate', 'batch_size', 'epoch', 'loss_function', 'network', 'device_num']

/**
 * The hyper-parameters of each run, `{run: {name: value}}`, from a `lineagemgr/lineages` answer:
 * the lineage's settings (optimizer, learning rate, ...) and its user-defined values (where the
 * hparams of TensorBoard land), by their own names.
 * @param {{object?: Array<{summary_dir: string, model_lineage?: Record<string, any>}>}|null} answer
 */
export function hparamsByRun(answer) {
  const result = {}
  for (const item of answer?.object || []) {
    const lineage = item.model_lineage || {}
    const values = {}
    for (const name of HYPER_FIELDS)
      if (lineage[name] !== null && lineage[name] !== undefined) values[name] = lineage[name]
    for (const [name, value] of Object.entries(lineage.user_defined || {})) values[name] = value
    result[item.summary_dir] = values
  }
  return result
}

/** Every hyper-parameter name some run has, sorted. */
export function hparamNames(byRun) {
  return [...new Set(Object.values(byRun).flatMap((values) => Object.keys(values)))].sort()
}
