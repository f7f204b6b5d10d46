import { shallowRef, watch } from 'vue'
import { useRoute } from 'vue-router'
import { CHART_RUNS, readChartRows, searchLineages, updateLineageInfo } from '@/api/lineage.js'
import { useRead } from '@/composables/read.js'
import { lineageRows } from '@/lib/lineageColumns.js'

export { CHART_RUNS }

/**
 * The lineage of one kind (`model` or `dataset`) of the CHART_RUNS most recently updated jobs the
 * query matches, re-read on each refresh; `count` is how many it matches in all. The rows keep
 * their identity while the answer is unchanged, so a refresh does not reset the user's brushing.
 * `save(row, {tag, remark})` stores an edit on the server, then in the row. `addedInfoNotice` says
 * why the stored tags and remarks may be missing or cannot be edited (null when all is well).
 * The rows are those the query in the URL (`?q=`, the query language over runs) matches.
 */
export function useLineage(lineageType) {
  const route = useRoute()
  const query = () => (typeof route.query.q === 'string' ? route.query.q : '')
  const {
    value: answer,
    loaded,
    error,
    read: load,
  } = useRead(() => readChartRows(lineageType, query()), {
    key: () => `q=${query()}`,
    refresh: true,
    keepEqual: true,
  })
  const rows = shallowRef([])
  const customized = shallowRef({})
  const count = shallowRef(0)
  // Why tags and remarks may be missing or refused (the answer's added_info_notice), else null.
  const addedInfoNotice = shallowRef(null)
  watch(answer, (body) => {
    rows.value = lineageRows(body, lineageType)
    customized.value = body?.customized || {}
    count.value = body?.count ?? rows.value.length
    addedInfoNotice.value = body?.added_info_notice || null
  })

  async function save(row, info) {
    try {
      await updateLineageInfo(row.id, info)
    } catch (err) {
      load() // the answer then says why the store refused it
      throw err
    }
    const added = { ...row.added, ...info }
    if (!added.tag) delete added.tag
    if (!added.remark) delete added.remark
    rows.value = rows.value.map((item) => (item.id === row.id ? { ...item, added } : item))
  }

  /**
   * One page of the table when the query matches more than CHART_RUNS: `{rows, count}`; `offset`
   * is a page index (the original's), sorted first by `sortedName` when given.
   */
  async function readPage({ limit, offset, sortedName = '', sortedType = '' }) {
    const keys = { limit, offset }
    if (sortedName) Object.assign(keys, { sorted_name: sortedName, sorted_type: sortedType || 'ascending' })
    const body = await searchLineages(lineageType, query(), undefined, keys)
    return { rows: lineageRows(body, lineageType), count: body?.count ?? 0 }
  }

  return { rows, count, customized, loaded, error, addedInfoNotice, reload: load, save, readPage }
}
