// The rows of the Parameter Details dialog: one per lineage field, sorted by the name shown; an
// object value (metrics, user-defined values) is a row whose children are its fields, its own
// value the compact JSON (as the original shows it before it is expanded).

function text(value) {
  if (value === null || value === undefined) return ''
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** `[{id, key, value, children?}]` of a model lineage; `label(key)` names a top-level field. */
export function lineageDetailRows(lineage, label = (key) => key) {
  const rows = Object.entries(lineage || {}).map(([key, value]) => {
    const row = { id: key, key: label(key), value: text(value) }
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const children = Object.entries(value).map(([name, item]) => ({
        id: `${key}/${name}`,
        key: name,
        value: text(item),
      }))
      if (children.length) row.children = children
    }
    return row
  })
  return rows.sort((a, b) => a.key.localeCompare(b.key))
}
