// The cards a per-tag page (components/pertag/PerTagPage.vue) opens with, known before its code
// is in (router/firstReads.js reads their data ahead of the page).
export const CARDS_PER_PAGE = 6

// Query fields that choose which cards the page shows (composables/jobTags.js).
const CARD_CHOOSING_FIELDS = ['tags', 'filter']

/**
 * The tags of the cards the page opens with when `query` chooses none (the first page of
 * `jobTags`); none when it does (the page works them out).
 */
export function firstCardTags(query, jobTags) {
  return CARD_CHOOSING_FIELDS.some((field) => query[field] !== undefined) ? [] : jobTags.slice(0, CARDS_PER_PAGE)
}
