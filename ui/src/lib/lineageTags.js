// The ten tags a user can give a job on the lineage pages (0 = none), each with its colour; a
// tagged job's line in the parallel chart takes its tag's colour.
export const TAG_COLORS = [
  '#e6553a',
  '#f39c12',
  '#f1c40f',
  '#27ae60',
  '#16a085',
  '#2980b9',
  '#8e44ad',
  '#d35400',
  '#7f8c8d',
  '#c0392b',
]

export const TAGS = TAG_COLORS.map((color, index) => ({ value: index + 1, color }))

/** `{rowId: colour}` of the tagged rows. */
export function tagColors(rows) {
  const colors = {}
  for (const row of rows) if (row.added.tag) colors[row.id] = TAG_COLORS[row.added.tag - 1]
  return colors
}
