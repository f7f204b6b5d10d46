import { computed } from 'vue'
import { useRoute, useRouter } from 'vue-router'
import { filterTags, selectedFromQuery, tagsToQuery } from '@/lib/tagQuery.js'
import { useJobData } from './jobData.js'

/**
 * The tags of one plugin (`image`, `tensor`, ...) of the train job named by the route's `train_id`
 * query, read through useJobData (one round trip, refreshed, polled while the server loads the job). The tag
 * selection lives in the route's `tags` query (no `tags` = all tags), the tag filter (a
 * case-insensitive regular expression) in `filter`, as on the scalar page; `shownTags` are the
 * selected tags the filter lets through, the ones that get a chart.
 *
 * Returns `{trainId, allTags, selectedTags, filter, shownTags, loaded, error, jobLoading, revision, reload}`
 * (`revision` as useJobData's: the per-tag cards re-read their data when it moves).
 */
export function useJobTags(pluginName) {
  const route = useRoute()
  const router = useRouter()

  const trainId = computed(() => (typeof route.query.train_id === 'string' ? route.query.train_id : ''))
  const { plugins, revision, loaded, error, jobLoading, reload } = useJobData(trainId)
  const allTags = computed(() => (Array.isArray(plugins.value[pluginName]) ? plugins.value[pluginName] : []))

  const selectedTags = computed({
    get: () => selectedFromQuery(route.query.tags, allTags.value),
    set: (tags) => {
      const query = { ...route.query }
      const value = tagsToQuery(tags, allTags.value)
      if (value === undefined) delete query.tags
      else query.tags = value
      router.replace({ query })
    },
  })

  const filter = computed({
    get: () => (typeof route.query.filter === 'string' ? route.query.filter : ''),
    set: (value) => {
      const query = { ...route.query }
      if (value) query.filter = value
      else delete query.filter
      router.replace({ query })
    },
  })
  const shownTags = computed(() => filterTags(selectedTags.value, filter.value).tags)

  return { trainId, allTags, selectedTags, filter, shownTags, loaded, error, jobLoading, revision, reload }
}
