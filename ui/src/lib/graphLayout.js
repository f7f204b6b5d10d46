// How the graph page's visible part is laid out (lib/graphModel.js: levels fetched, scopes
// expanded). The top level alone is laid out by dagre in the page, as the dashboard's card does,
// so the first drawing does not wait for ELK's worker to start; anything nested, and a top level
// too large to lay out on the page's thread, by ELK in its worker.
import { layoutGraph } from './elkLayout.js'
import { elkGraph, flattenLayout } from './graphModel.js'
import { topLevelLayout } from './graphTopLevelLayout.js'

// Beyond this many top-level nodes (a graph recorded without scopes) dagre could hold the page
// for a noticeable time: the worker lays them out instead.
export const PAGE_LAYOUT_MAX_NODES = 300

/** Whether the visible part is the top level alone, small enough to lay out in the page. */
export function laidOutInPage(levels, expanded) {
  return expanded.size === 0 && (levels.get('') || []).length <= PAGE_LAYOUT_MAX_NODES
}

/** The laid-out visible part, in the shape of graphModel.js's flattenLayout. */
export async function layoutVisible(levels, expanded) {
  if (laidOutInPage(levels, expanded)) return topLevelLayout(levels.get('') || [])
  return flattenLayout(await layoutGraph(elkGraph(levels, expanded)))
}
