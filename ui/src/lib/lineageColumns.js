// Columns of the lineage pages, derived from the answer of `lineagemgr/lineages`. A column is
// `{key, label, labelKey, numeric, value(row)}`: `labelKey` is an i18n key for the fixed fields,
// `label` the raw text for metrics ("[M]Accuracy") and user-defined values ("[U]seed"), the
// original's prefixes. A row is `{id, lineage, added}` (`id` = summary_dir).

// The model lineage fields of the original's table, in its order.
export const MODEL_FIELDS = [
  'loss_function',
  'train_dataset_path',
  'train_dataset_count',
  'test_dataset_path',
  'test_dataset_count',
  'network',
  'optimizer',
  'learning_rate',
  'epoch',
  'batch_size',
  'device_num',
  'loss',
  'model_size',
  'dataset_mark',
]

/**
 * The name the table gives a model lineage value the server names `name` ("learning_rate" is
 * "Learning rate"; metrics and user-defined values keep their prefixed names, e.g. "[M]Accuracy").
 */
export function fieldLabel(name, t) {
  return MODEL_FIELDS.includes(name) ? t(`lineage.field.${name}`) : name
}

/** The answer's objects as rows: `{id, lineage, added}`. */
export function lineageRows(answer, lineageType) {
  const field = lineageType === 'dataset' ? 'dataset_graph' : 'model_lineage'
  return (answer?.object || []).map((item) => ({
    id: item.summary_dir,
    lineage: item[field] || {},
    added: { ...(item.added_info || {}) },
  }))
}

function isNumber(value) {
  return typeof value === 'number' && Number.isFinite(value)
}

function column(key, value, rows, names = {}) {
  const present = rows.map(value).filter((item) => item !== null && item !== undefined && item !== '')
  return { key, numeric: present.length > 0 && present.every(isNumber), value, ...names }
}

/** Model lineage columns: metrics, user-defined values, then the fixed fields; only those some row has. */
export function modelColumns(rows, customized = {}) {
  const columns = []
  for (const [key, info] of Object.entries(customized)) {
    const [group, ...rest] = key.split('/')
    const name = rest.join('/')
    const prefix = group === 'metric' ? '[M]' : group === 'user_defined' ? '[U]' : ''
    if (!prefix) continue
    const value = (row) => row.lineage[group]?.[name] ?? null
    // The whole name after the group: TensorBoard metrics hold slashes ("[M]hparam/accuracy").
    columns.push(column(key, value, rows, { label: `${prefix}${info?.label?.slice(group.length + 1) || name}` }))
  }
  for (const field of MODEL_FIELDS) {
    const value = (row) => row.lineage[field] ?? null
    if (rows.some((row) => value(row) !== null))
      columns.push(column(field, value, rows, { labelKey: `lineage.field.${field}` }))
  }
  return columns
}

/** The operators of a pipeline from its source(s) to its last operation, each `{op, path}`. */
export function pipelineOperators(graph) {
  const operators = []
  // Depth first from the root (the last operation); children are the earlier operations.
  const visit = (node, path) => {
    if (!node || typeof node !== 'object') return
    ;(node.children || []).forEach((child, index) => visit(child, `${path}.${index}`))
    operators.push({ op: node, path })
  }
  visit(graph, '0')
  return operators
}

function parameterText(value) {
  if (value === null || value === undefined) return null
  if (typeof value === 'number' || typeof value === 'string') return value
  if (typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

/**
 * Dataset lineage columns: per operator of the pipeline (named `<OpType>` or `<OpType> #2` when a
 * type repeats), its parameters, a Map's operations as one "A → B" value and a sampler's name and
 * sample count (see operatorParameters). Keys are the same for rows with the same pipeline shape.
 */
export function datasetColumns(rows) {
  // By row id: tables hand their rows back wrapped in reactive proxies.
  const values = new Map(rows.map((row) => [row.id, operatorParameters(row.lineage)]))
  const keys = [...new Set([...values.values()].flatMap((params) => Object.keys(params)))]
  return keys.map((key) => {
    const [opName, ...param] = key.split('/')
    return column(key, (row) => values.get(row.id)?.[key] ?? null, rows, { label: `${opName} · ${param.join('/')}` })
  })
}

/** `{"<OpType>[ #n]/<param>": value}` of one pipeline (see datasetColumns). */
export function operatorParameters(graph) {
  const values = {}
  const seen = {}
  for (const { op } of pipelineOperators(graph)) {
    const type = op.op_type || '?'
    seen[type] = (seen[type] || 0) + 1
    const opName = seen[type] > 1 ? `${type} #${seen[type]}` : type
    for (const [param, raw] of Object.entries(op)) {
      if (param === 'op_type' || param === 'children') continue
      if (param === 'operations' && Array.isArray(raw)) {
        values[`${opName}/${param}`] = raw.map((item) => item.tensor_op_name).join(' → ')
      } else if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
        // A sampler and the like: one column per field, so its sample count stays a number.
        for (const [field, value] of Object.entries(raw)) {
          if (field !== 'children') values[`${opName}/${param}.${field}`] = parameterText(value)
        }
      } else {
        values[`${opName}/${param}`] = parameterText(raw)
      }
    }
  }
  return values
}

/**
 * The columns shown by default: at most `most` of those whose value differs between rows (a
 * column where every training agrees tells nothing), else the first `most` columns.
 */
export function defaultColumnKeys(columns, rows, most = 12) {
  const varying = columns.filter((col) => new Set(rows.map((row) => JSON.stringify(col.value(row)))).size > 1)
  return (varying.length >= 2 ? varying : columns).slice(0, most).map((col) => col.key)
}

// The hyper-parameters the optimization objective rates: shown by default whenever recorded.
export const HYPER_PARAMETER_FIELDS = ['learning_rate', 'epoch', 'batch_size', 'optimizer', 'network']

/**
 * The model lineage columns shown by default, in the table's order: the hyper-parameters and the
 * metrics, then the other columns whose value differs between rows, `most` in all.
 */
export function modelDefaultKeys(columns, rows, most = 14) {
  const keys = columns.map((col) => col.key)
  const wanted = [
    ...HYPER_PARAMETER_FIELDS.filter((key) => keys.includes(key)),
    ...keys.filter((key) => key.startsWith('metric/')),
    ...defaultColumnKeys(columns, rows, most),
  ]
  const chosen = new Set([...new Set(wanted)].slice(0, most))
  return keys.filter((key) => chosen.has(key))
}
