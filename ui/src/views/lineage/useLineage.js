import { ref, shallowRef } from 'vue'
import { searchLineages, updateLineageInfo } from '../../api/lineage.js'
import { isCancel } from '../../api/http.js'
import { useRefresh } from '../../composables/refresh.js'
import { lineageRows } from '../../lib/lineageColumns.js'

/**
 * Every job's lineage of one kind (`model` or `dataset`), re-read on each refresh. The rows keep
 * their identity while the answer is unchanged, so a refresh does not reset the user's brushing.
 * `save(row, {tag, remark})` stores an edit on the server, then in the row. `addedInfoNotice` says
 * why the stored tags and remarks may be missing or cannot be edited (null when all is well).
 */
export function useLineage(lineageType) {
  const rows = shallowRef([])
  const customized = shallowRef({})
  const loaded = ref(false)
  const error = ref(null)
  // Why tags and remarks may be missing or refused (the answer's added_info_notice), else null.
  const addedInfoNotice = shallowRef(null)
  let lastAnswer = ''
  let generation = 0

  async function load() {
    const gen = ++generation
    try {
      const answer = await searchLineages(lineageType)
      if (gen !== generation) return
      const text = JSON.stringify(answer)
      if (text !== lastAnswer) {
        lastAnswer = text
        rows.value = lineageRows(answer, lineageType)
        customized.value = answer?.customized || {}
        addedInfoNotice.value = answer?.added_info_notice || null
      }
      error.value = null
    } catch (err) {
      if (isCancel(err) || gen !== generation) return
      error.value = err
    } finally {
      if (gen === generation) loaded.value = true
    }
  }

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

  load()
  useRefresh(load)
  return { rows, customized, loaded, error, addedInfoNotice, reload: load, save }
}
