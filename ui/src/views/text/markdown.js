import MarkdownIt from 'markdown-it'

// Markdown of TensorBoard text summaries as HTML that is safe to insert. markdown-it with `html`
// off never passes markup through: a `<script>` or an `onerror=` in the text comes out as text.
// Its link check refuses javascript:, vbscript:, file: and (but for images) data: URLs. Tables
// (GFM) and fenced code are built in, as TensorBoard renders them.
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false })

const renderToken = (tokens, index, options, env, self) => self.renderToken(tokens, index, options)
const linkOpen = markdown.renderer.rules.link_open || renderToken
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  // a link of a training's notes opens beside the dashboard, without a handle on it
  tokens[index].attrSet('target', '_blank')
  tokens[index].attrSet('rel', 'noopener noreferrer')
  return linkOpen(tokens, index, options, env, self)
}

/** The HTML of markdown `text` (raw HTML in it escaped, unsafe links left out). */
export function renderMarkdown(text) {
  return markdown.render(String(text ?? ''))
}

/** Whether a text sample (`{text: rows of cells, shape}`) is one text rather than a table. */
export function isSingleText(sample) {
  const shape = sample?.shape ?? []
  return shape.length === 0 || (shape.length === 1 && shape[0] === 1)
}
