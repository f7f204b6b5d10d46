import { describe, expect, it } from 'vitest'
import { topLevelLayout } from '@/lib/graphCardLayout.js'

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

describe('graph card layout', () => {
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

  it('lays out a single node', () => {
    const single = topLevelLayout([{ name: 'Default', type: 'name_scope' }])
    expect(single.edges).toEqual([])
    expect(single.nodes).toHaveLength(1)
    expect(single.width).toBeGreaterThan(single.nodes[0].width)
  })
})
