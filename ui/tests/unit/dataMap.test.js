import { describe, expect, it } from 'vitest'
import { buildPipeline, categoryOf, formatParam, nodeSize, operationsOf, paramRows } from '@/lib/dataMap.js'
import { boxLines, pipelineLayout } from '@/lib/pipelineLayout.js'

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
  })

  it("lists a box's type, then its operations, each line inside the box", () => {
    const lines = boxLines(map)
    expect(lines.map((line) => [line.text, line.title])).toEqual([
      ['Map', true],
      ['Resize', false],
      ['HwcToChw', false],
    ])
    const height = nodeSize(map)[1]
    for (let index = 1; index < lines.length; index++) expect(lines[index].y).toBeGreaterThan(lines[index - 1].y)
    expect(lines.at(-1).y).toBeLessThan(height)
    expect(boxLines(map, true).at(-1).y).toBeLessThan(nodeSize(map, true)[1])
  })

  const chain = ['MnistDataset', 'Map', 'Shuffle', 'Batch']
  const centres = (laid) =>
    Object.fromEntries(laid.nodes.map((node) => [node.opType, [node.x + node.width / 2, node.y + node.height / 2]]))
  const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

  it('lays the data flow out left to right, each edge from a box to the one it feeds', () => {
    const laid = pipelineLayout(root)
    const at = centres(laid)
    for (let index = 1; index < chain.length; index++) {
      expect(at[chain[index]][0]).toBeGreaterThan(at[chain[index - 1]][0])
      expect(at[chain[index]][1]).toBeCloseTo(at[chain[0]][1], 0)
    }
    const names = Object.fromEntries(laid.nodes.map((node) => [node.id, node.opType]))
    expect(laid.edges.map((edge) => `${names[edge.source]}>${names[edge.target]}`).sort()).toEqual(
      ['MnistDataset>Map', 'Map>Shuffle', 'Shuffle>Batch'].sort(),
    )
    for (const node of laid.nodes) {
      expect(node.x).toBeGreaterThanOrEqual(0)
      expect(node.x + node.width).toBeLessThanOrEqual(laid.width)
      expect(node.y + node.height).toBeLessThanOrEqual(laid.height)
    }
    laid.nodes.forEach((a, index) => laid.nodes.slice(index + 1).forEach((b) => expect(overlap(a, b)).toBe(false)))
  })

  it('draws parallel sources side by side before what joins them', () => {
    const zip = buildPipeline({
      op_type: 'Zip',
      children: [
        { op_type: 'ADataset', children: [] },
        { op_type: 'BDataset', children: [] },
      ],
    })
    const laid = pipelineLayout(zip.root)
    const at = centres(laid)
    expect(at.ADataset[0]).toBeLessThan(at.Zip[0])
    expect(at.BDataset[0]).toBeLessThan(at.Zip[0])
    expect(at.ADataset[1]).not.toBeCloseTo(at.BDataset[1], 0)
    expect(laid.edges).toHaveLength(2)
    expect(overlap(laid.nodes[1], laid.nodes[2])).toBe(false)
  })

  it('lays it out downwards when asked, and smaller on the thumbnail', () => {
    const down = pipelineLayout(root, { downward: true })
    const at = centres(down)
    for (let index = 1; index < chain.length; index++)
      expect(at[chain[index]][1]).toBeGreaterThan(at[chain[index - 1]][1])
    expect(down.height).toBeGreaterThan(down.width)
    const across = pipelineLayout(root)
    const thumbnail = pipelineLayout(root, { compact: true })
    expect(thumbnail.width).toBeLessThan(across.width)
    expect(thumbnail.nodes.map((node) => node.id)).toEqual(across.nodes.map((node) => node.id))
  })
})
