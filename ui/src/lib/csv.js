// CSV text (RFC 4180: comma separated, CRLF lines, a field quoted when it holds a comma, quote or
// line break) and file names for downloads.

function csvField(value) {
  const text = String(value ?? '')
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** The CSV document of a header row and data rows (arrays of values; null and undefined are empty). */
export function toCsv(header, rows) {
  return [header, ...rows].map((fields) => `${fields.map(csvField).join(',')}\r\n`).join('')
}

/** A file name safe on every OS from its parts ("./run 1", "loss") joined by '_', plus the extension. */
export function safeFileName(parts, extension, fallback = 'export') {
  const clean = (text) =>
    String(text ?? '')
      .replace(/^\.\//, '')
      .replace(/[^\w.-]+/g, '_')
      .replace(/^_+|_+$/g, '')
  return `${parts.map(clean).filter(Boolean).join('_') || fallback}.${extension}`
}
