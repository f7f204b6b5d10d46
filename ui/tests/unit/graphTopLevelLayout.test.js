import { describe, expect, it } from 'vitest'
import { straightEnds, topLevelLayout } from '@/lib/graphTopLevelLayout.js'

const tensor = (shape) => ({ edge_type: 'data', shape, data_type: 'DT_TENSOR[DT_FLOAT32]' })
// A training graph's top level: the forward scope, its gradients feeding back, and a constant.
const NODES = [
  {
    name: 'Default',
    type: 'name_scope',
    input: { 'Gradients/a/op1': tensor([[6]]), 'Gradients/a/op2': tensor([[6]]) },
  },
  { name: 'Gradients', type: 'name_scope', input: { 'Default/conv1/op3': tensor([[32, 6, 28, 28]]) } },
  { name: 'Const-op9', type: 'Const', input: {} },
]

describe('top-level layout', () => {
  const layout = topLevelLayout(NODES)
  const node = (id) => layout.nodes.find((item) => item.id === id)

  it('places every node in the drawing, the first recorded on top', () => {
    expect(layout.nodes.map((item) => item.id)).toEqual(['Default', 'Gradients', 'Const-op9'])
    expect(node('Default').y + node('Default').height).toBeLessThanOrEqual(node('Gradients').y)
    for (const item of layout.nodes) {
      expect(item.x).toBeGreaterThanOrEqual(0)
      expect(item.y).toBeGreaterThanOrEqual(0)
      expect(item.x + item.width).toBeLessThanOrEqual(layout.width)
      expect(item.y + item.height).toBeLessThanOrEqual(layout.height)
      expect(item.expanded).toBe(false)
    }
  })

  it('draws each edge from its source to its target with its label', () => {
    const edges = Object.fromEntries(layout.edges.map((edge) => [`${edge.source}>${edge.target}`, edge]))
    expect(Object.keys(edges).sort()).toEqual(['Default>Gradients', 'Gradients>Default'])
    expect(edges['Gradients>Default'].label.text).toBe('2tensors')
    expect(edges['Default>Gradients'].label.text).toBe('DT_TENSOR[DT_FLOAT32] 32×6×28×28')
    expect(edges['Default>Gradients'].tensors).toEqual([
      { name: 'Default/conv1/op3', shape: [[32, 6, 28, 28]], dataType: 'DT_TENSOR[DT_FLOAT32]' },
    ])
    for (const edge of layout.edges) {
      expect(edge.points.length).toBeGreaterThanOrEqual(2)
      const [first, last] = [edge.points[0], edge.points.at(-1)]
      const source = node(edge.source)
      const target = node(edge.target)
      expect(first[1]).toBeCloseTo(edge.source === 'Default' ? source.y + source.height : source.y, 0)
      expect(last[1]).toBeCloseTo(edge.target === 'Default' ? target.y + target.height : target.y, 0)
    }
  })

  it('leaves and enters the boxes straight down, each label on the right of its edge', () => {
    for (const edge of layout.edges) {
      const xs = new Set(edge.points.map(([x]) => Math.round(x)))
      expect(xs.size).toBe(1)
      expect(edge.label.x).toBeGreaterThan(edge.points[0][0])
    }
  })

  it('lays out a single node', () => {
    const single = topLevelLayout([{ name: 'Default', type: 'name_scope' }])
    expect(single.edges).toEqual([])
    expect(single.nodes).toHaveLength(1)
    expect(single.width).toBeGreaterThan(single.nodes[0].width)
  })
})

describe('straightEnds', () => {
  const source = { x: 0, y: 0, width: 100, height: 40 }
  const target = { x: 0, y: 100, width: 100, height: 40 }

  it('moves an end under the next point when that lies above or below its box', () => {
    expect(
      straightEnds(
        [
          [40, 40],
          [80, 70],
          [40, 100],
        ],
        source,
        target,
      ),
    ).toEqual([
      [80, 40],
      [80, 70],
      [80, 100],
    ])
  })

  it('keeps ends whose next point lies beside the box, and straight edges', () => {
    const aside = [
      [100, 20],
      [150, 70],
      [100, 120],
    ]
    expect(straightEnds(aside, source, target)).toEqual(aside)
    const direct = [
      [50, 40],
      [50, 100],
    ]
    expect(straightEnds(direct, source, target)).toEqual(direct)
  })
})
