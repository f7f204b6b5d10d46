import { describe, expect, it } from 'vitest'
import { edgeLabel, edgeTensorLines, linkedTo, shapeText } from '@/lib/graphEdges.js'
import { elkGraph, visibleEdges, visibleNodes } from '@/lib/graphModel.js'

const tensor = (name, shape = [[32, 10]], dataType = 'DT_TENSOR[DT_FLOAT32]') => ({ name, shape, dataType })

describe('graph edge labels', () => {
  it('names one tensor by type and shape, several by their count', () => {
    expect(shapeText([[6, 1, 5, 5]])).toBe('6×1×5×5')
    expect(edgeLabel([tensor('a', [[6, 1, 5, 5]])])).toBe('DT_TENSOR[DT_FLOAT32] 6×1×5×5')
    expect(edgeLabel([tensor('a', [[]])])).toBe('DT_TENSOR[DT_FLOAT32]')
    expect(edgeLabel([tensor('a', [[], [], []], "DT_TUPLE['DT_BOOL', 'DT_BOOL', 'DT_BOOL']")])).toBe('tuple(3 items)')
    expect(edgeLabel([tensor('a', [], 'DT_UNDEFINED')])).toBe('DT_UNDEFINED')
    expect(edgeLabel([tensor('a'), tensor('b'), tensor('c')])).toBe('3tensors')
    expect(edgeLabel([])).toBe('')
  })

  it('lists at most a dozen tensors on hover', () => {
    const many = Array.from({ length: 14 }, (_, index) => tensor(`t${index}`))
    const { lines, more } = edgeTensorLines(many)
    expect(lines).toHaveLength(12)
    expect(lines[0]).toEqual({ name: 't0', dataType: 'DT_TENSOR[DT_FLOAT32]', shape: '[[32,10]]' })
    expect(more).toBe(2)
  })

  it('counts the recorded edges a drawn edge stands for and gives ELK its label', () => {
    const levels = new Map([
      [
        '',
        [
          { name: 'Default', type: 'name_scope', input: {} },
          {
            name: 'Gradients',
            type: 'name_scope',
            input: { 'Default/a': { shape: [[1]], data_type: 'X' }, 'Default/b': { shape: [[2]], data_type: 'X' } },
          },
        ],
      ],
    ])
    const [edge] = visibleEdges(visibleNodes(levels, new Set()), new Set())
    expect(edge.tensors.map((item) => item.name)).toEqual(['Default/a', 'Default/b'])
    const graph = elkGraph(levels, new Set())
    expect(graph.edges[0].labels[0].text).toBe('2tensors')
    expect(graph.edges[0].labels[0].width).toBeGreaterThan(0)
    // The recorded order breaks the Default <-> Gradients cycle: Default stays on top.
    expect(graph.layoutOptions['elk.layered.cycleBreaking.strategy']).toBe('MODEL_ORDER')
  })
})

describe('edges of the selected node', () => {
  const edges = [
    { id: 'e0', source: 'A/x', target: 'B' },
    { id: 'e1', source: 'B', target: 'C' },
    { id: 'e2', source: 'A/x', target: 'A/y' },
    { id: 'e3', source: 'C', target: 'D' },
  ]

  it('takes the edges into and out of a node and their other ends', () => {
    const linked = linkedTo(edges, 'B')
    expect([...linked.edges]).toEqual(['e0', 'e1'])
    expect([...linked.nodes]).toEqual(['A/x', 'C'])
  })

  it('takes the edges crossing an expanded scope, not those inside it', () => {
    const linked = linkedTo(edges, 'A')
    expect([...linked.edges]).toEqual(['e0'])
    expect([...linked.nodes]).toEqual(['B'])
    expect(linkedTo(edges, '').edges.size).toBe(0)
  })
})
