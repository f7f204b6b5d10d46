import { computed, ref, shallowRef } from 'vue'
import { fetchGraphLevel, fetchNodePath } from '../../api/graphs.js'
import { isCancel } from '../../api/http.js'
import { layoutGraph } from '../../lib/elkLayout.js'
import { ancestors, elkGraph, flattenLayout, isScope, pathLevels } from '../../lib/graphModel.js'

/**
 * The drawn state of one graph file (`trainId`, `tag` refs; `mode` ref 'normal' or 'optimize'): the levels fetched, the expanded
 * scopes and their layout (ELK, in a worker). `toggle(scope)` expands or collapses a scope,
 * `reveal(name)` expands every scope above a node, `open()` starts over at the top level.
 */
export function useGraph(trainId, tag, mode = { value: 'normal' }) {
  const levels = shallowRef(new Map())
  const expanded = shallowRef(new Set())
  const layout = shallowRef({ nodes: [], edges: [], width: 0, height: 0 })
  const loading = ref(false)
  const error = ref(null)
  let generation = 0

  const nodes = computed(() => {
    const all = new Map()
    for (const list of levels.value.values()) for (const node of list) all.set(node.name, node)
    return all
  })

  async function relayout(gen) {
    const result = await layoutGraph(elkGraph(levels.value, expanded.value))
    if (gen === generation) layout.value = flattenLayout(result)
  }

  async function run(task) {
    const gen = generation
    loading.value = true
    try {
      await task(gen)
      if (gen === generation) await relayout(gen)
      error.value = null
    } catch (err) {
      if (!isCancel(err) && gen === generation) error.value = err
    } finally {
      if (gen === generation) loading.value = false
    }
  }

  async function ensureLevel(scope, gen) {
    if (levels.value.has(scope)) return
    const answer = await fetchGraphLevel(trainId.value, tag.value, mode.value, scope)
    if (gen !== generation) return
    levels.value = new Map(levels.value).set(scope, answer?.nodes || [])
  }

  function open() {
    generation += 1
    levels.value = new Map()
    expanded.value = new Set()
    layout.value = { nodes: [], edges: [], width: 0, height: 0 }
    if (!trainId.value || !tag.value) return Promise.resolve()
    return run((gen) => ensureLevel('', gen))
  }

  function toggle(scope) {
    return run(async (gen) => {
      const next = new Set(expanded.value)
      if (next.has(scope)) {
        for (const name of next) if (name === scope || name.startsWith(`${scope}/`)) next.delete(name)
      } else {
        await ensureLevel(scope, gen)
        next.add(scope)
      }
      expanded.value = next
    })
  }

  function reveal(name) {
    return run(async (gen) => {
      const scopes = ancestors(name)
      if (scopes.some((scope) => !levels.value.has(scope))) {
        const answer = await fetchNodePath(trainId.value, tag.value, mode.value, name)
        if (gen !== generation) return
        const merged = new Map(levels.value)
        for (const [scope, list] of pathLevels(answer)) if (!merged.has(scope)) merged.set(scope, list)
        levels.value = merged
      }
      const next = new Set(expanded.value)
      for (const scope of scopes) if (nodes.value.get(scope) && isScope(nodes.value.get(scope))) next.add(scope)
      expanded.value = next
    })
  }

  return { levels, expanded, layout, nodes, loading, error, open, toggle, reveal }
}
