// Where a query (the query language over runs) went wrong, read from the server's message.

const PLACE = /line (\d+), column (\d+)/

/**
 * `{line, column, offset}` of the mistake the server's `message` names (`line 1, column 5: ...`),
 * the offset counted in `text`; null when the message names no place.
 */
export function queryErrorPlace(message, text) {
  const found = PLACE.exec(String(message || ''))
  if (!found) return null
  const line = Number(found[1])
  const column = Number(found[2])
  const lines = String(text ?? '').split('\n')
  let offset = column - 1
  for (let index = 0; index < line - 1 && index < lines.length; index += 1) offset += lines[index].length + 1
  return { line, column, offset }
}

/** Whether an API error is the server refusing a query (50540201 cannot be read, 50540202 cannot be run). */
export function isQueryError(error) {
  return error?.code === '50540201' || error?.code === '50540202'
}
