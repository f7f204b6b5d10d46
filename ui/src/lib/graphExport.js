// The drawn computational graph as a file of its own: the whole graph (not just the visible part)
// as SVG, with the page's styles written into each element (the file has no stylesheet), or as
// PNG drawn from that SVG.

const MARGIN = 20
const MAX_PNG_SIDE = 8000 // browsers refuse larger canvases
const STYLE_PROPERTIES = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'opacity',
  'font-size',
  'font-family',
  'font-weight',
  'text-anchor',
]

function inlineStyles(source, copy) {
  const computed = getComputedStyle(source)
  copy.setAttribute('style', STYLE_PROPERTIES.map((name) => `${name}:${computed.getPropertyValue(name)}`).join(';'))
  for (let index = 0; index < source.children.length; index += 1)
    inlineStyles(source.children[index], copy.children[index])
}

/**
 * The standalone SVG text of the graph drawn in `svg` (an element of GraphCanvas), laid out as
 * `layout` (`{width, height}`), on a `background` colour.
 */
export function graphSvgText(svg, layout, background) {
  const copy = svg.cloneNode(true)
  inlineStyles(svg, copy)
  const { width, height } = exportSize(layout)
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg')
  copy.setAttribute('width', String(width))
  copy.setAttribute('height', String(height))
  copy.setAttribute('viewBox', `0 0 ${width} ${height}`)
  copy.removeAttribute('class')
  copy.removeAttribute('data-testid')
  copy.removeAttribute('data-transform')
  copy.style.cursor = ''
  const drawing = copy.querySelector(':scope > g')
  drawing.setAttribute('transform', `translate(${MARGIN},${MARGIN})`)
  for (const hit of copy.querySelectorAll('.edge-hit')) hit.remove()
  const backdrop = document.createElementNS('http://www.w3.org/2000/svg', 'rect')
  backdrop.setAttribute('width', '100%')
  backdrop.setAttribute('height', '100%')
  backdrop.setAttribute('fill', background)
  copy.insertBefore(backdrop, copy.firstChild)
  return new XMLSerializer().serializeToString(copy)
}

/** A `data:image/png` URL of the SVG text (`width` x `height` in graph units), at up to twice the size. */
export async function svgToPngUrl(svgText, width, height) {
  const scale = Math.min(2, MAX_PNG_SIDE / Math.max(width, height, 1))
  const image = new Image()
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }))
  try {
    image.src = url
    await image.decode()
    const canvas = document.createElement('canvas')
    canvas.width = Math.max(1, Math.round(width * scale))
    canvas.height = Math.max(1, Math.round(height * scale))
    canvas.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height)
    return canvas.toDataURL('image/png')
  } finally {
    URL.revokeObjectURL(url)
  }
}

/** The size of the exported image of `layout`. */
export function exportSize(layout) {
  return { width: Math.ceil(layout.width + 2 * MARGIN), height: Math.ceil(layout.height + 2 * MARGIN) }
}
