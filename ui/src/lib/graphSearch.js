// Search results of `graphs/nodes/names` (a tree of the matching nodes and the scopes above them)
// as the node names to offer: those whose own name holds the text, operators before scopes.

/** Matching node names, at most `limit`. */
export function searchMatches(answer, text, limit = 50) {
  const needle = text.toLowerCase()
  const leaves = []
  const scopes = []
  const walk = (nodes) => {
    for (const node of nodes || []) {
      const own = node.name.slice(node.name.lastIndexOf('/') + 1).toLowerCase()
      if (own.includes(needle)) (node.nodes?.length ? scopes : leaves).push(node.name)
      walk(node.nodes)
    }
  }
  walk(answer?.nodes)
  return [...leaves, ...scopes].slice(0, limit)
}
