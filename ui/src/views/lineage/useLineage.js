import { shallowRef, watch } from 'vue'
import { useRoute } from 'vue-router'
import { searchLineages, updateLineageInfo } from '@/api/lineage.js'
import { useRead } from '@/composables/read.js'
import { lineageRows } from '@/lib/lineageColumns.js'

/**
 * Every job's lineage of one kind (`model` or `dataset`), re-read on each refresh. The rows keep
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
  } = useRead(() => searchLineages(lineageType, query()), { key: () => `q=${query()}`, refresh: true, keepEqual: true })
  const rows = shallowRef([])
  const customized = shallowRef({})
  // Why tags and remarks may be missing or refused (the answer's added_info_notice), else null.
  const addedInfoNotice = shallowRef(null)
  watch(answer, (body) => {
    rows.value = lineageRows(body, lineageType)
    customized.value = body?.customized || {}
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

  return { rows, customized, loaded, error, addedInfoNotice, reload: load, save }
}
