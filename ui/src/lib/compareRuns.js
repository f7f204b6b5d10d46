// The trainings of the scalars comparison page: which are chosen (the `runs` query, at most
// MAX_RUNS; absent = the first MAX_RUNS, as the original), and the colour of each. A training keeps
// its colour while it stays chosen and across reloads (the colours are remembered), so choosing or
// dropping another one never repaints it.
import { decodeTagList, encodeTagList } from './tagQuery.js'

export const MAX_RUNS = 5

/** The chosen trainings: those of the query that exist, in list order, at most MAX_RUNS. */
export function chosenRuns(queryValue, allRuns) {
  if (queryValue === undefined || queryValue === null) return allRuns.slice(0, MAX_RUNS)
  const wanted = new Set(decodeTagList(String(queryValue)))
  return allRuns.filter((run) => wanted.has(run)).slice(0, MAX_RUNS)
}

/** The trainings the `runs` query names (whether they exist or not). */
export function namedRuns(queryValue) {
  return queryValue === undefined || queryValue === null ? [] : decodeTagList(String(queryValue))
}

/** The query value of a choice (undefined for the default). */
export function runsToQuery(runs, allRuns) {
  const first = allRuns.slice(0, MAX_RUNS)
  const isDefault = runs.length === first.length && runs.every((run, index) => run === first[index])
  return isDefault ? undefined : encodeTagList(runs)
}

/**
 * Colour indexes `{run: index}` for the chosen runs: a run keeps the index it had (`previous`)
 * unless an earlier chosen run already holds it; the others take the lowest free index.
 */
export function assignColors(runs, previous = {}, paletteSize = MAX_RUNS) {
  const assigned = {}
  const used = new Set()
  const waiting = []
  for (const run of runs) {
    const index = previous[run]
    if (Number.isInteger(index) && index >= 0 && index < paletteSize && !used.has(index)) {
      assigned[run] = index
      used.add(index)
    } else {
      waiting.push(run)
    }
  }
  for (const run of waiting) {
    let index = 0
    while (used.has(index) && index < paletteSize - 1) index += 1
    assigned[run] = index
    used.add(index)
  }
  return assigned
}

/** Every tag of the chosen runs, in the order first seen. */
export function tagUnion(tagLists) {
  return [...new Set(tagLists.flat())]
}
