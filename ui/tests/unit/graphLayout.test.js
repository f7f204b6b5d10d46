import { describe, expect, it } from 'vitest'
import { laidOutInPage, layoutVisible, PAGE_LAYOUT_MAX_NODES } from '@/lib/graphLayout.js'
import { topLevelLayout } from '@/lib/graphTopLevelLayout.js'

const scope = (name) => ({ name, type: 'name_scope', input: {} })
const operator = (index) => ({ name: `op${index}`, type: 'Add', input: index ? { [`op${index - 1}`]: {} } : {} })
const TOP = [scope('Default'), { ...scope('Gradients'), input: { 'Default/conv1/op3': { shape: [[2]] } } }]

describe('laidOutInPage', () => {
  it('takes the top level alone while nothing is expanded', () => {
    expect(laidOutInPage(new Map([['', TOP]]), new Set())).toBe(true)
    expect(laidOutInPage(new Map(), new Set())).toBe(true)
  })

  it('leaves nested scopes to the worker', () => {
    const levels = new Map([
      ['', TOP],
      ['Default', [operator(0)]],
    ])
    expect(laidOutInPage(levels, new Set(['Default']))).toBe(false)
  })

  it('leaves a top level too large for the page to the worker', () => {
    const many = (count) => new Map([['', Array.from({ length: count }, (_, index) => operator(index))]])
    expect(laidOutInPage(many(PAGE_LAYOUT_MAX_NODES), new Set())).toBe(true)
    expect(laidOutInPage(many(PAGE_LAYOUT_MAX_NODES + 1), new Set())).toBe(false)
  })
})

describe('layoutVisible', () => {
  it('lays the top level out in the page, as the dashboard card does', async () => {
    const laid = await layoutVisible(new Map([['', TOP]]), new Set())
    expect(laid).toEqual(topLevelLayout(TOP))
    expect(laid.nodes.map((node) => node.id)).toEqual(['Default', 'Gradients'])
    expect(laid.edges).toHaveLength(1)
  })
})
