// Which trainings the loss comparison page draws: `runs` in the URL (at most MAX_LANDSCAPE_RUNS;
// absent = the first ones of the list, as the original), each with its final landscape or none.
import { decodeTagList, encodeTagList } from './tagQuery.js'

export const MAX_LANDSCAPE_RUNS = 3
export const COMPARE_FORMS = ['3d', 'isoline', 'topographic']

/** The chosen trainings: those of the query that exist, in list order, at most MAX_LANDSCAPE_RUNS. */
export function chosenLandscapeRuns(queryValue, allRuns) {
  if (queryValue === undefined || queryValue === null) return allRuns.slice(0, MAX_LANDSCAPE_RUNS)
  const wanted = new Set(decodeTagList(String(queryValue)))
  return allRuns.filter((run) => wanted.has(run)).slice(0, MAX_LANDSCAPE_RUNS)
}

export function landscapeRunsToQuery(runs) {
  return encodeTagList(runs)
}

/** `{run: landscape | null}` from the answer (an item with an error code means "none"). */
export function landscapesByRun(runs, answer) {
  const found = {}
  for (const item of answer?.landscapes || []) if (!item.error_code) found[item.train_id] = item
  return Object.fromEntries(runs.map((run) => [run, found[run] || null]))
}
