import { describe, expect, it } from 'vitest'
import { isSingleText, renderMarkdown } from '@/views/text/markdown.js'

describe('renderMarkdown', () => {
  it('renders markdown: headings, emphasis, tables, code', () => {
    const html = renderMarkdown('# Notes\n\n**lr** 0.1\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n`x`')
    expect(html).toContain('<h1>Notes</h1>')
    expect(html).toContain('<strong>lr</strong>')
    expect(html).toContain('<td>1</td>')
    expect(html).toContain('<code>x</code>')
  })

  it('lets no markup of the text through', () => {
    const html = renderMarkdown('<script>alert(1)</script><img src=x onerror="alert(2)"> <b>bold</b>')
    expect(html).not.toMatch(/<script|<img|<b>/)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;')
  })

  it('drops unsafe links and opens the others beside the page', () => {
    expect(renderMarkdown('[a](javascript:alert(1))')).not.toContain('href')
    expect(renderMarkdown('[a](data:text/html,x)')).not.toContain('href')
    const link = renderMarkdown('[docs](https://example.com)')
    expect(link).toContain('href="https://example.com"')
    expect(link).toContain('target="_blank"')
    expect(link).toContain('rel="noopener noreferrer"')
  })

  it('takes a missing text as empty', () => {
    expect(renderMarkdown(null)).toBe('')
  })
})

describe('isSingleText', () => {
  it('is a 0-d text or a 1-d tensor of one text', () => {
    expect(isSingleText({ shape: [] })).toBe(true)
    expect(isSingleText({ shape: [1] })).toBe(true)
    expect(isSingleText({ shape: [3] })).toBe(false)
    expect(isSingleText({ shape: [1, 1] })).toBe(false)
  })
})
