import { computed, ref, watch } from 'vue'
import { CHARTS_PER_PAGE } from '@/lib/scalarView.js'
import { filterTags } from '@/lib/tagQuery.js'

/**
 * The chart controls the scalar pages share, over their view kept in the URL (`view`, a ref of
 * readScalarView's answer; `update(patch)` writes a patch of it): the tag filter, the page of
 * charts, the smoothing (a draft that moves the charts at once; `commitSmoothing` writes it when
 * the user lets go) and its method, the horizontal axis (with the tag whose values are the x on
 * the `scalar` axis) and each chart's log axis. `selectedTags` (a ref) are the tags chosen for
 * charts; `shownTags` those the filter lets through, `pagedTags` the current page's. `allTags` (a
 * ref) are the tags the x can be taken from: the first is chosen when the `scalar` axis is.
 *
 * Returns `{filter, shownTags, currentPage, pagedTags, smoothingDraft, commitSmoothing,
 * smoothingMethod, xAxis, xTag, logYOf, setLogY}`.
 */
export function useScalarControls(view, update, selectedTags, allTags = selectedTags) {
  const filter = computed({
    get: () => view.value.filter,
    set: (value) => update({ filter: value, page: 1 }),
  })
  const shownTags = computed(() => filterTags(selectedTags.value, view.value.filter).tags)
  const pageCount = computed(() => Math.max(1, Math.ceil(shownTags.value.length / CHARTS_PER_PAGE)))
  const currentPage = computed({
    get: () => Math.min(view.value.page, pageCount.value),
    set: (page) => update({ page }),
  })
  const pagedTags = computed(() =>
    shownTags.value.slice((currentPage.value - 1) * CHARTS_PER_PAGE, currentPage.value * CHARTS_PER_PAGE),
  )

  const smoothingDraft = ref(view.value.smoothing)
  watch(
    () => view.value.smoothing,
    (value) => (smoothingDraft.value = value),
  )
  const commitSmoothing = (value) => update({ smoothing: value })
  const smoothingMethod = computed({
    get: () => view.value.smoothingMethod,
    set: (value) => update({ smoothingMethod: value }),
  })
  const xAxis = computed({
    get: () => view.value.xAxis,
    set: (value) => {
      const xTag = view.value.xTag || allTags.value[0]
      if (value === 'scalar' && !xTag) return
      update(value === 'scalar' ? { xAxis: value, xTag } : { xAxis: value })
    },
  })
  const xTag = computed({
    get: () => view.value.xTag || '',
    set: (value) => update({ xTag: value, xAxis: 'scalar' }),
  })
  const logYOf = (tag) => view.value.logY.includes(tag)
  function setLogY(tag, on) {
    const others = view.value.logY.filter((item) => item !== tag)
    update({ logY: on ? [...others, tag] : others })
  }

  return {
    filter,
    shownTags,
    currentPage,
    pagedTags,
    smoothingDraft,
    commitSmoothing,
    smoothingMethod,
    xAxis,
    xTag,
    logYOf,
    setLogY,
  }
}
