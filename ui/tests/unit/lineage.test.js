import { describe, expect, it } from 'vitest'
import { toCsv, safeFileName } from '@/lib/csv.js'
import {
  datasetColumns,
  defaultColumnKeys,
  fieldLabel,
  lineageRows,
  modelColumns,
  modelDefaultKeys,
  operatorParameters,
} from '@/lib/lineageColumns.js'
import { brushedIds, parallelOption } from '@/lib/lineageParallel.js'
import { lineageCsv, pageRows, sortRows } from '@/lib/lineageTable.js'
import { distributionOption, importanceOption, rankedParameters, scatterPoints } from '@/lib/lineageTargets.js'
import { tagColors, TAG_COLORS } from '@/lib/lineageTags.js'

const t = (key) => key.split('.').pop()

const MODEL_ANSWER = {
  customized: {
    'metric/Accuracy': { label: 'metric/Accuracy', required: true, type: 'float' },
    'user_defined/owner': { label: 'user_defined/owner', required: false, type: 'str' },
  },
  object: [
    {
      summary_dir: './a',
      model_lineage: { optimizer: 'Adam', learning_rate: 0.01, metric: { Accuracy: 0.9 }, user_defined: {} },
      added_info: { tag: 2, remark: 'x' },
    },
    {
      summary_dir: './b',
      model_lineage: { optimizer: 'SGD', learning_rate: 0.1, metric: { Accuracy: 0.5 }, user_defined: { owner: 'bo' } },
      added_info: {},
    },
    { summary_dir: './c', model_lineage: { optimizer: 'Adam', learning_rate: 0.01, metric: {} }, added_info: {} },
  ],
}

const PIPELINE = {
  op_type: 'Batch',
  batch_size: 32,
  children: [
    {
      op_type: 'Map',
      operations: [{ tensor_op_name: 'Resize' }, { tensor_op_name: 'Rescale' }],
      children: [
        {
          op_type: 'Map',
          operations: [{ tensor_op_name: 'TypeCast' }],
          children: [{ op_type: 'MnistDataset', sampler: { sampler_name: 'Seq', num_samples: 64 }, children: [] }],
        },
      ],
    },
  ],
}

describe('lineage columns', () => {
  const rows = lineageRows(MODEL_ANSWER, 'model')
  const columns = modelColumns(rows, MODEL_ANSWER.customized)

  it('turns the answer into rows with their added info', () => {
    expect(rows.map((row) => row.id)).toEqual(['./a', './b', './c'])
    expect(rows[0].added).toEqual({ tag: 2, remark: 'x' })
  })

  it('puts metrics and user-defined values first, with the original prefixes, then the present fields', () => {
    expect(columns.map((col) => col.key)).toEqual([
      'metric/Accuracy',
      'user_defined/owner',
      'optimizer',
      'learning_rate',
    ])
    expect(columns[0].label).toBe('[M]Accuracy')
    expect(columns[1].label).toBe('[U]owner')
    expect(columns[2].labelKey).toBe('lineage.field.optimizer')
    expect(columns.map((col) => col.numeric)).toEqual([true, false, false, true])
    expect(columns[0].value(rows[2])).toBeNull()
  })

  it('shows the columns that differ between rows by default', () => {
    expect(defaultColumnKeys(columns, rows)).toEqual([
      'metric/Accuracy',
      'user_defined/owner',
      'optimizer',
      'learning_rate',
    ])
    const same = lineageRows({ object: [MODEL_ANSWER.object[0], MODEL_ANSWER.object[0]] }, 'model')
    expect(defaultColumnKeys(modelColumns(same, {}), same, 1)).toEqual(['optimizer'])
  })

  it('always shows the hyper-parameters and metrics of the model lineage by default, in table order', () => {
    const same = lineageRows({ object: [MODEL_ANSWER.object[0], MODEL_ANSWER.object[0]] }, 'model')
    const sameColumns = modelColumns(same, MODEL_ANSWER.customized)
    // The hyper-parameters and the metric come first, whether or not they differ between rows.
    expect(modelDefaultKeys(sameColumns, same, 3)).toEqual(['metric/Accuracy', 'optimizer', 'learning_rate'])
    expect(modelDefaultKeys(columns, rows, 2)).toEqual(['optimizer', 'learning_rate'])
  })

  it('names a pipeline operator by its type, numbering repeats, from the source to the last operation', () => {
    expect(operatorParameters(PIPELINE)).toEqual({
      'MnistDataset/sampler.sampler_name': 'Seq',
      'MnistDataset/sampler.num_samples': 64,
      'Map/operations': 'TypeCast',
      'Map #2/operations': 'Resize → Rescale',
      'Batch/batch_size': 32,
    })
    const dataset = lineageRows({ object: [{ summary_dir: './a', dataset_graph: PIPELINE }] }, 'dataset')
    const cols = datasetColumns(dataset)
    expect(cols.find((col) => col.key === 'Batch/batch_size').numeric).toBe(true)
    expect(cols.find((col) => col.key === 'Map #2/operations').label).toBe('Map #2 · operations')
    // Rows handed back as other objects (reactive proxies) still find their values by id.
    expect(cols[0].value({ ...dataset[0] })).toBe('Seq')
  })
})

describe('parallel chart', () => {
  const rows = lineageRows(MODEL_ANSWER, 'model')
  const columns = modelColumns(rows, MODEL_ANSWER.customized)

  it('draws value axes for numbers and category axes for text, one line per row', () => {
    const option = parallelOption(columns, rows, { t, colors: tagColors(rows) })
    expect(option.parallelAxis.map((axis) => axis.type)).toEqual(['value', 'category', 'category', 'value'])
    expect(option.parallelAxis[2]).toMatchObject({ id: 'optimizer', name: 'optimizer' })
    expect(option.parallelAxis[2].data).toEqual(['-', 'Adam', 'SGD'])
    expect(option.series[0].data.map((item) => item.value)).toEqual([
      [0.9, '-', 'Adam', 0.01],
      [0.5, 'bo', 'SGD', 0.1],
      [null, '-', 'Adam', 0.01],
    ])
    expect(option.series[0].data[0].lineStyle.color).toBe(TAG_COLORS[1])
    expect(option.series[0].data[1].lineStyle).toBeUndefined()
  })

  it('maps the active indices of a brush to row ids', () => {
    expect([...brushedIds(rows, [0, 2])]).toEqual(['./a', './c'])
  })
})

describe('lineage table', () => {
  const rows = lineageRows(MODEL_ANSWER, 'model')
  const columns = modelColumns(rows, MODEL_ANSWER.customized)

  it('sorts by a column with missing values last in both orders', () => {
    expect(sortRows(rows, 'metric/Accuracy', 'ascending', columns).map((row) => row.id)).toEqual(['./b', './a', './c'])
    expect(sortRows(rows, 'metric/Accuracy', 'descending', columns).map((row) => row.id)).toEqual(['./a', './b', './c'])
    expect(sortRows(rows, 'tag', 'descending', columns).map((row) => row.id)[0]).toBe('./a')
    expect(sortRows(rows, '', '', columns)).toBe(rows)
  })

  it('pages and writes CSV with quoting', () => {
    expect(pageRows(rows, 2, 2).map((row) => row.id)).toEqual(['./c'])
    const csv = lineageCsv(rows.slice(0, 1), columns.slice(0, 1), ['Acc, %'])
    expect(csv).toBe('summary_dir,"Acc, %",remark,tag\r\n./a,0.9,x,2\r\n')
    expect(toCsv(['a'], [['say "hi"']])).toBe('a\r\n"say ""hi"""\r\n')
    expect(safeFileName(['./run 1', 'loss/x'], 'csv')).toBe('run_1_loss_x.csv')
  })
})

describe('optimization objective', () => {
  const target = {
    name: '[M]Accuracy',
    data: [0.9, 0.5, 0.7],
    hyper_parameters: [
      { name: 'epoch', importance: 0.2 },
      { name: 'learning_rate', importance: 0.8 },
      { name: '[U]seed', importance: 0, reason_code: 2 },
    ],
  }
  const metadata = {
    train_ids: ['./a', './b', './c'],
    possible_hyper_parameters: [{ name: 'learning_rate', data: [0.01, null, 0.1] }],
  }

  it('ranks the rated parameters and draws the chosen one red', () => {
    const ranked = rankedParameters(target)
    expect(ranked.map((item) => item.name)).toEqual(['learning_rate', 'epoch'])
    const option = importanceOption(ranked, 'epoch', { accent: 'blue', danger: 'red' })
    expect(option.yAxis.data).toEqual(['epoch', 'learning_rate'])
    expect(option.series[0].data.map((item) => item.itemStyle.color)).toEqual(['red', 'blue'])
  })

  it("names the parameters as the table's columns", () => {
    const label = (name) => fieldLabel(name, (key) => `<${key}>`)
    const option = importanceOption(rankedParameters(target), 'epoch', { label })
    expect(option.yAxis.data).toEqual(['epoch', 'learning_rate'])
    expect(option.yAxis.axisLabel.formatter('learning_rate')).toBe('<lineage.field.learning_rate>')
    expect(label('[U]seed')).toBe('[U]seed')
  })

  it("writes the bars' values in the page's text colour, without the library's outline", () => {
    const dark = importanceOption(rankedParameters(target), 'epoch', { theme: 'dark' }).series[0].label
    const light = importanceOption(rankedParameters(target), 'epoch').series[0].label
    expect(dark).toMatchObject({ show: true, textBorderWidth: 0 })
    expect(dark.color).not.toBe(light.color)
    expect(dark.color).toBe(distributionOption(target, 'dark').legend.textStyle.color)
  })

  it('pairs a parameter with the target for the jobs that have both', () => {
    expect(scatterPoints(metadata, target, 'learning_rate')).toEqual([
      { value: [0.01, 0.9], name: './a' },
      { value: [0.1, 0.7], name: './c' },
    ])
  })
})
