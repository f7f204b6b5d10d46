import { describe, expect, it } from 'vitest'
import {
  ancestors,
  elkGraph,
  flattenLayout,
  nodeKind,
  pathLevels,
  shortName,
  visibleAncestor,
  visibleEdges,
  visibleNodes,
} from '@/lib/graphModel.js'
import { searchMatches } from '@/lib/graphSearch.js'

const edge = (type = 'data') => ({ shape: [[1]], edge_type: type })
// Top: scope A (holding a1 and scope A/B holding b1), operator x fed by a1 and (control) by b1.
const LEVELS = new Map([
  [
    '',
    [
      { name: 'A', type: 'name_scope', input: {} },
      { name: 'x', type: 'MatMul', input: { 'A/a1': edge(), 'A/B/b1': edge('control') } },
    ],
  ],
  [
    'A',
    [
      { name: 'A/a1', type: 'Conv2D', input: { 'A/B/b1': edge() } },
      { name: 'A/B', type: 'name_scope', input: {} },
      { name: 'A/p', type: 'Parameter', input: {} },
    ],
  ],
])

describe('graph model', () => {
  it('names and kinds', () => {
    expect(shortName('A/B/b1')).toBe('b1')
    expect(ancestors('A/B/b1')).toEqual(['A', 'A/B'])
    expect(['name_scope', 'aggregation_scope', 'Parameter', 'Const', 'ReLU'].map((type) => nodeKind({ type }))).toEqual(
      ['scope', 'aggregation', 'parameter', 'const', 'operator'],
    )
  })

  it('draws an edge from inside a collapsed scope at the scope', () => {
    const expanded = new Set()
    const visible = visibleNodes(LEVELS, expanded)
    expect([...visible.keys()]).toEqual(['A', 'x'])
    expect(visibleAncestor('A/B/b1', visible, expanded)).toBe('A')
    expect(visibleEdges(visible, expanded).map((item) => [item.source, item.target, item.type])).toEqual([
      ['A', 'x', 'data'],
      ['A', 'x', 'control'],
    ])
  })

  it('draws the nodes of an expanded scope inside its box, edges to their innermost visible ancestor', () => {
    const expanded = new Set(['A'])
    const visible = visibleNodes(LEVELS, expanded)
    expect([...visible.keys()]).toEqual(['A', 'A/a1', 'A/B', 'A/p', 'x'])
    expect(visibleEdges(visible, expanded).map((item) => [item.source, item.target, item.type])).toEqual([
      ['A/B', 'A/a1', 'data'],
      ['A/a1', 'x', 'data'],
      ['A/B', 'x', 'control'],
    ])
    const graph = elkGraph(LEVELS, expanded)
    expect(graph.children.map((child) => child.id)).toEqual(['A', 'x'])
    expect(graph.children[0].children.map((child) => child.id)).toEqual(['A/a1', 'A/B', 'A/p'])
    expect(graph.edges).toHaveLength(3)
    expect(graph.layoutOptions['elk.hierarchyHandling']).toBe('INCLUDE_CHILDREN')
  })

  it('turns ELK positions (relative to the parent) into absolute ones', () => {
    const result = {
      width: 300,
      height: 200,
      children: [
        {
          id: 'A',
          x: 10,
          y: 20,
          width: 100,
          height: 80,
          children: [{ id: 'A/a1', x: 5, y: 30, width: 50, height: 20 }],
        },
      ],
      edges: [
        {
          id: 'e0',
          container: 'A',
          sources: ['A/a1'],
          targets: ['A/b1'],
          edgeType: 'control',
          tensors: [{ name: 'A/a1', shape: [[2]], dataType: 'DT_TENSOR[DT_INT32]' }],
          sections: [{ startPoint: { x: 1, y: 2 }, endPoint: { x: 3, y: 4 } }],
          labels: [{ text: 'DT_TENSOR[DT_INT32] 2', x: 7, y: 8 }],
        },
      ],
    }
    const layout = flattenLayout(result)
    expect(layout.nodes).toEqual([
      { id: 'A', x: 10, y: 20, width: 100, height: 80, expanded: true },
      { id: 'A/a1', x: 15, y: 50, width: 50, height: 20, expanded: false },
    ])
    expect(layout.edges).toEqual([
      {
        id: 'e0',
        source: 'A/a1',
        target: 'A/b1',
        type: 'control',
        tensors: [{ name: 'A/a1', shape: [[2]], dataType: 'DT_TENSOR[DT_INT32]' }],
        points: [
          [11, 22],
          [13, 24],
        ],
        label: { text: 'DT_TENSOR[DT_INT32] 2', x: 17, y: 28 },
      },
    ])
  })

  it('reads the levels of a single-node answer', () => {
    const answer = { nodes: [1], scope_name: '', children: { nodes: [2], scope_name: 'A', children: {} } }
    expect([...pathLevels(answer)]).toEqual([
      ['', [1]],
      ['A', [2]],
    ])
  })

  it('offers the matching nodes of a search, operators first', () => {
    const answer = {
      nodes: [
        {
          name: 'conv',
          nodes: [
            { name: 'conv/Conv2D-op0', nodes: [] },
            { name: 'conv/ReLU-op1', nodes: [] },
          ],
        },
      ],
    }
    expect(searchMatches(answer, 'CONV')).toEqual(['conv/Conv2D-op0', 'conv'])
  })
})
