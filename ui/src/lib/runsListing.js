// How many trainings a comparison page lists without a search: the newest ones. The others are
// found by a search on the server, so a page never holds ten thousand of them. Apart from
// composables/runsData.js so that a route can ask for the list while its page's code loads.
export const LISTED_RUNS = 100
