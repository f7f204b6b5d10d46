import { computed, ref, shallowRef } from 'vue'
import { fetchGraphLevel, fetchNodePath } from '@/api/graphs.js'
import { isCancel } from '@/api/http.js'
import { useLatestCall } from '@/composables/latestCall.js'
import { layoutVisible } from '@/lib/graphLayout.js'
import { ancestors, isScope, pathLevels } from '@/lib/graphModel.js'

/**
 * The drawn state of one graph file (`trainId`, `tag` refs; `mode` ref 'normal' or 'optimize'): the levels fetched, the expanded
 * scopes and their layout (lib/graphLayout.js). `toggle(scope)` expands or collapses a scope,
 * `reveal(name)` expands every scope above a node, `open()` starts over at the top level,
 * `children(scope)` gives the nodes under a scope (fetched once, for the scope tree); answers
 * for a graph opened before, or after the page is gone, never land.
 */
export function useGraph(trainId, tag, mode = { value: 'normal' }) {
  const levels = shallowRef(new Map())
  const expanded = shallowRef(new Set())
  const layout = shallowRef({ nodes: [], edges: [], width: 0, height: 0 })
  const loading = ref(false)
  const error = ref(null)
  const latest = useLatestCall()
  let session = latest.begin() // the graph open now: toggles and reveals work on it

  const nodes = computed(() => {
    const all = new Map()
    for (const list of levels.value.values()) for (const node of list) all.set(node.name, node)
    return all
  })

  async function relayout(call) {
    const result = await layoutVisible(levels.value, expanded.value)
    if (call.current) layout.value = result
  }

  async function run(task) {
    const call = session
    loading.value = true
    try {
      await task(call)
      if (call.current) await relayout(call)
      error.value = null
    } catch (err) {
      if (!isCancel(err) && call.current) error.value = err
    } finally {
      if (call.current) loading.value = false
    }
  }

  // A level asked for twice at once (the drawing and the scope tree both start with the top level)
  // is fetched once: the answers of the graph open now, by scope.
  let pending = new Map()

  async function ensureLevel(scope, call) {
    if (levels.value.has(scope)) return
    if (!pending.has(scope)) {
      const asked = fetchGraphLevel(trainId.value, tag.value, mode.value, scope)
      pending.set(scope, asked)
      const forget = () => pending.get(scope) === asked && pending.delete(scope)
      asked.then(forget, forget)
    }
    const answer = await pending.get(scope)
    if (!call.current || levels.value.has(scope)) return
    levels.value = new Map(levels.value).set(scope, answer?.nodes || [])
  }

  function open() {
    session = latest.begin()
    pending = new Map()
    levels.value = new Map()
    expanded.value = new Set()
    layout.value = { nodes: [], edges: [], width: 0, height: 0 }
    if (!trainId.value || !tag.value) return Promise.resolve()
    return run((call) => ensureLevel('', call))
  }

  function toggle(scope) {
    return run(async (call) => {
      const next = new Set(expanded.value)
      if (next.has(scope)) {
        for (const name of next) if (name === scope || name.startsWith(`${scope}/`)) next.delete(name)
      } else {
        await ensureLevel(scope, call)
        if (!call.current) return
        next.add(scope)
      }
      expanded.value = next
    })
  }

  function reveal(name) {
    return run(async (call) => {
      const scopes = ancestors(name)
      if (scopes.some((scope) => !levels.value.has(scope))) {
        const answer = await fetchNodePath(trainId.value, tag.value, mode.value, name)
        if (!call.current) return
        const merged = new Map(levels.value)
        for (const [scope, list] of pathLevels(answer)) if (!merged.has(scope)) merged.set(scope, list)
        levels.value = merged
      }
      const next = new Set(expanded.value)
      for (const scope of scopes) if (nodes.value.get(scope) && isScope(nodes.value.get(scope))) next.add(scope)
      expanded.value = next
    })
  }

  /** The nodes directly under `scope` ('' = the top level), without drawing them. */
  async function children(scope) {
    const call = session
    await ensureLevel(scope, call)
    return call.current ? levels.value.get(scope) || [] : []
  }

  return { levels, expanded, layout, nodes, loading, error, open, toggle, reveal, children }
}
