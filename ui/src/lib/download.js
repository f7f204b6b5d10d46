// Browser downloads of data made in the page.

/** Starts a browser download of a `data:` (or object) URL under `fileName`. */
export function downloadDataUrl(url, fileName) {
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.appendChild(link)
  link.click()
  link.remove()
}

/** Starts a browser download of `text`. */
export function downloadText(text, fileName, mimeType) {
  const url = URL.createObjectURL(new Blob([text], { type: mimeType }))
  downloadDataUrl(url, fileName)
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
