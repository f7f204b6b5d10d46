// The charts the scalar page opens with, known before its code is in (router/firstReads.js reads
// their points ahead of the page); kept apart from scalarView.js, which the page alone needs.
export const CHARTS_PER_PAGE = 6

// Query fields that choose which charts the page shows first, or on which axis (scalarView.js).
const CHART_CHOOSING_FIELDS = ['tags', 'tag', 'filter', 'page', 'synthesis', 'xaxis']

/**
 * The tags whose points the page reads first when `query` chooses none of its charts (the first
 * page of `jobTags`); none when it does (the page works them out).
 */
export function firstChartTags(query, jobTags) {
  return CHART_CHOOSING_FIELDS.some((field) => query[field] !== undefined) ? [] : jobTags.slice(0, CHARTS_PER_PAGE)
}
