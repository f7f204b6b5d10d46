/** Pages Element's pager lists by default (its `pager-count`). */
export const PAGER_COUNT = 7

/**
 * The items of Element's pager for `current` of `count` pages, as it shows them: numbers, and
 * 'more' where it folds a run of pages (the first and last pages always shown).
 * @param {number} current
 * @param {number} count
 * @returns {(number | 'more')[]}
 */
export function pagerItems(current, count) {
  if (count <= PAGER_COUNT) return Array.from({ length: count }, (_, index) => index + 1)
  const half = (PAGER_COUNT - 1) / 2
  const foldBefore = current > PAGER_COUNT - half
  const foldAfter = current < count - half
  let middle
  if (foldBefore && !foldAfter) {
    middle = range(count - (PAGER_COUNT - 2), count - 1)
  } else if (!foldBefore && foldAfter) {
    middle = range(2, PAGER_COUNT - 1)
  } else {
    const offset = Math.floor(PAGER_COUNT / 2) - 1
    middle = range(current - offset, current + offset)
  }
  return [1, ...(foldBefore ? ['more'] : []), ...middle, ...(foldAfter ? ['more'] : []), count]
}

function range(first, last) {
  return Array.from({ length: last - first + 1 }, (_, index) => first + index)
}
