// Which graph file a graph page opens, from its query (`tag`, `optimized=1`) and the job's tag
// lists: shared by the page and its route's first read, so both ask for the same level.
export const OPTIMIZED_SUFFIX = ' (optimized)'

const listOf = (value) => (Array.isArray(value) ? value : [])

/**
 * `{file, optimized, tag, mode}`: the recorded file shown (the query's `tag` if the job has it, else
 * its first), whether its readability-optimized view is shown (asked for and recorded), the tag
 * read and the server's `mode`.
 */
export function openedGraph(query, tagLists) {
  const files = listOf(tagLists.graph)
  const file = files.includes(query.tag) ? query.tag : files[0] || ''
  const optimized = query.optimized === '1' && listOf(tagLists.optimized_graph).includes(`${file}${OPTIMIZED_SUFFIX}`)
  return {
    file,
    optimized,
    tag: optimized ? `${file}${OPTIMIZED_SUFFIX}` : file,
    mode: optimized ? 'optimize' : 'normal',
  }
}
