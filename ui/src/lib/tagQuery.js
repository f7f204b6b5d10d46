// Tag selection <-> URL query (`tags=`). Tags are joined with ',', a literal ',' or '\' inside a
// tag is escaped with '\'. No `tags` parameter means "all tags" (so new tags of a live job show up),
// an empty `tags=` means "none". vue-router percent-encodes the value in the URL.

export function encodeTagList(tags) {
  return tags.map((tag) => String(tag).replace(/\\/g, '\\\\').replace(/,/g, '\\,')).join(',')
}

export function decodeTagList(text) {
  if (text === '') return []
  // The common case, no escape at all, is one native split: a comparison's URL names up to 100
  // runs and the page reads that list on every change of its route.
  if (!text.includes('\\')) return text.split(',')
  const tags = []
  let current = ''
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]
    if (char === '\\' && i + 1 < text.length) {
      current += text[i + 1]
      i += 1
    } else if (char === ',') {
      tags.push(current)
      current = ''
    } else {
      current += char
    }
  }
  tags.push(current)
  return tags
}

/** The tags requested by a route query value: null = all tags, else a list (possibly empty). */
export function tagsFromQuery(value) {
  if (value === undefined || value === null) return null
  if (Array.isArray(value)) return value.flatMap((item) => (item === null ? [] : decodeTagList(String(item))))
  return decodeTagList(String(value))
}

/** The selected tags of a job: the requested ones that exist, in the job's tag order. */
export function selectedFromQuery(value, allTags) {
  const requested = tagsFromQuery(value)
  if (requested === null) return [...allTags]
  const wanted = new Set(requested)
  return allTags.filter((tag) => wanted.has(tag))
}

/** The query value for a selection: undefined when every tag is selected. */
export function tagsToQuery(selected, allTags) {
  const chosen = new Set(selected)
  if (allTags.length > 0 && allTags.every((tag) => chosen.has(tag))) return undefined
  return encodeTagList(allTags.filter((tag) => chosen.has(tag)))
}

/**
 * Tags whose name matches `pattern`, a case-insensitive regular expression (as in the original
 * UI). An invalid expression falls back to a plain substring match and reports `invalid: true`.
 */
export function filterTags(tags, pattern) {
  const text = (pattern || '').trim()
  if (!text) return { tags: [...tags], invalid: false }
  try {
    const regex = new RegExp(text, 'i')
    return { tags: tags.filter((tag) => regex.test(tag)), invalid: false }
  } catch {
    const needle = text.toLowerCase()
    return { tags: tags.filter((tag) => tag.toLowerCase().includes(needle)), invalid: true }
  }
}

/** "All" checkbox: (de)select every visible tag, keep the rest, order as in `allTags`. */
export function toggleVisible(selected, visible, checked, allTags) {
  const result = new Set(selected)
  for (const tag of visible) {
    if (checked) result.add(tag)
    else result.delete(tag)
  }
  return allTags.filter((tag) => result.has(tag))
}

/** State of the "All" checkbox for the visible tags: 'all', 'some' or 'none'. */
export function visibleSelectionState(selected, visible) {
  const chosen = new Set(selected)
  const count = visible.filter((tag) => chosen.has(tag)).length
  if (count === 0) return 'none'
  return count === visible.length ? 'all' : 'some'
}
