import { describe, expect, it } from 'vitest'
import {
  buildPipeline,
  categoryOf,
  formatParam,
  nodeLabel,
  nodeSize,
  operationsOf,
  paramRows,
  downwardHeight,
  fitsAcross,
  pipelineOption,
  thumbnailScale,
  treeData,
} from '@/lib/dataMap.js'

// The shape of a `dataset_graph` answer (MindSpore 2.10's SummaryCollector on LeNet/MNIST).
const GRAPH = {
  op_type: 'Batch',
  batch_size: 32,
  drop_remainder: true,
  children: [
    {
      op_type: 'Shuffle',
      buffer_size: 1024,
      reset_each_epoch: true,
      children: [
        {
          op_type: 'Map',
          input_columns: ['"image"'],
          operations: [
            { tensor_op_name: 'Resize', tensor_op_params: '{"size": [32, 32], "interpolation": 0}' },
            { tensor_op_name: 'HwcToChw', tensor_op_params: null },
          ],
          children: [
            {
              op_type: 'MnistDataset',
              dataset_dir: '/data/mnist',
              sampler: { sampler_name: 'SequentialSampler', num_samples: 0 },
              children: [],
            },
          ],
        },
      ],
    },
  ],
}

describe('categoryOf', () => {
  it('names sources, the known operations and the rest', () => {
    expect(categoryOf('MnistDataset')).toBe('create')
    expect(categoryOf('ImageFolderDataset')).toBe('create')
    expect(categoryOf('Map')).toBe('map')
    expect(categoryOf('Shuffle')).toBe('shuffle')
    expect(categoryOf('Batch')).toBe('batch')
    expect(categoryOf('Repeat')).toBe('repeat')
    expect(categoryOf('Zip')).toBe('other')
    expect(categoryOf('Create')).toBe('other')
    expect(categoryOf(undefined)).toBe('other')
  })
})

describe('parameters', () => {
  it('shows strings without their JSON quotes, lists joined, objects as JSON', () => {
    expect(formatParam('"image"')).toBe('image')
    expect(formatParam('all')).toBe('all')
    expect(formatParam([32, 32])).toBe('32, 32')
    expect(formatParam(['"a"', '"b"'])).toBe('a, b')
    expect(formatParam({ a: 1 })).toBe('{"a":1}')
    expect(formatParam(true)).toBe('true')
    expect(formatParam(null)).toBe('')
  })

  it('lists every key but the tree structure, sorted', () => {
    expect(paramRows(GRAPH.children[0].children[0])).toEqual([{ key: 'input_columns', value: 'image' }])
    expect(paramRows(GRAPH).map((row) => row.key)).toEqual(['batch_size', 'drop_remainder'])
  })

  it("parses a Map's tensor operation parameters", () => {
    expect(operationsOf(GRAPH.children[0].children[0])).toEqual([
      {
        name: 'Resize',
        params: [
          { key: 'interpolation', value: '0' },
          { key: 'size', value: '32, 32' },
        ],
      },
      { name: 'HwcToChw', params: [] },
    ])
    expect(operationsOf({ operations: [{ tensor_op_name: 'X', tensor_op_params: 'not json' }] })[0].params).toEqual([
      { key: 'value', value: 'not json' },
    ])
    expect(operationsOf({})).toEqual([])
  })
})

describe('buildPipeline', () => {
  it('is null without a pipeline', () => {
    expect(buildPipeline(undefined)).toBeNull()
    expect(buildPipeline({})).toBeNull()
  })

  it('keeps the tree from the last operation and lists nodes from the sources', () => {
    const { root, nodes } = buildPipeline(GRAPH)
    expect(root.id).toBe('n0')
    expect(root.opType).toBe('Batch')
    expect(root.children[0].children[0].children[0].opType).toBe('MnistDataset')
    expect(nodes.map((node) => [node.id, node.opType])).toEqual([
      ['n3', 'MnistDataset'],
      ['n2', 'Map'],
      ['n1', 'Shuffle'],
      ['n0', 'Batch'],
    ])
  })

  it('lists parallel sources before what joins them', () => {
    const zip = { op_type: 'Zip', children: [{ op_type: 'ADataset' }, { op_type: 'BDataset' }] }
    const { root, nodes } = buildPipeline(zip)
    expect(root.children.map((child) => child.opType)).toEqual(['ADataset', 'BDataset'])
    expect(nodes.map((node) => node.opType)).toEqual(['ADataset', 'BDataset', 'Zip'])
  })
})

describe('drawing', () => {
  const { root } = buildPipeline(GRAPH)
  const map = root.children[0].children[0]

  it('sizes a Map box for its operations, on the page and on the thumbnail', () => {
    const [width, height] = nodeSize(map)
    expect(height).toBeGreaterThan(nodeSize(root)[1])
    expect(width).toBeGreaterThan(nodeSize(root)[0] - 1)
    // The dashboard's thumbnail lists a Map's operations too, in smaller boxes.
    expect(nodeSize(map, true)[1]).toBeGreaterThan(nodeSize(root, true)[1])
    expect(nodeSize(map, true)[1]).toBeLessThan(height)
    expect(nodeLabel(map)).toBe('{title|Map}\n{op|Resize}\n{op|HwcToChw}')
  })

  it('marks the selected node only', () => {
    const [batch] = treeData(root, { selected: 'n1' })
    const shuffle = batch.children[0]
    expect(shuffle.itemStyle.borderWidth).toBe(3)
    expect(batch.itemStyle.borderWidth).toBe(1)
    expect(shuffle.itemStyle.color).not.toBe(batch.itemStyle.color)
  })

  it('lays the tree out right to left, roaming only on the page', () => {
    const series = pipelineOption(root).series[0]
    expect(series.type).toBe('tree')
    expect(series.orient).toBe('RL')
    expect(series.roam).toBe(true)
    expect(pipelineOption(root, { compact: true }).series[0].roam).toBe(false)
  })

  it('lays the page tree out top to bottom where its levels do not fit across', () => {
    expect(fitsAcross(root, 1200)).toBe(true)
    expect(fitsAcross(root, 300)).toBe(false)
    expect(pipelineOption(root, { width: 1200 }).series[0].orient).toBe('RL')
    const narrow = pipelineOption(root, { width: 300 }).series[0]
    expect(narrow.orient).toBe('BT')
    // Room at the sides for the widest box's half, so no box is cut at the edges.
    expect(narrow.left).toBeGreaterThan(nodeSize(root)[0] / 2)
    // The drawing is made tall enough for its levels' boxes one below the other.
    const heights = []
    for (let node = narrow.data[0]; node; node = node.children[0]) heights.push(node.symbolSize[1])
    const spacing = (downwardHeight(root) - narrow.top - narrow.bottom) / (heights.length - 1)
    for (let index = 1; index < heights.length; index++) {
      expect((heights[index - 1] + heights[index]) / 2).toBeLessThan(spacing)
    }
    // The thumbnail stays across, scaled to its card.
    expect(pipelineOption(root, { compact: true, width: 150 }).series[0].orient).toBe('RL')
  })

  it('shrinks the thumbnail on a narrow card so its boxes do not overlap', () => {
    expect(thumbnailScale(root, 2000)).toBe(1)
    const narrow = thumbnailScale(root, 150)
    expect(narrow).toBeLessThan(1)
    const series = pipelineOption(root, { compact: true, width: 150 }).series[0]
    const levels = []
    for (let node = series.data[0]; node; node = node.children[0]) levels.push(node.symbolSize[0])
    const spacing = (150 - series.left - series.right) / (levels.length - 1)
    for (let index = 1; index < levels.length; index++) {
      expect((levels[index - 1] + levels[index]) / 2).toBeLessThan(spacing)
    }
  })
})
