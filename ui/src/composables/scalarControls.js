import { computed, ref, watch } from 'vue'
import { CHARTS_PER_PAGE } from '@/lib/scalarView.js'
import { filterTags } from '@/lib/tagQuery.js'

/**
 * The chart controls the scalar pages share, over their view kept in the URL (`view`, a ref of
 * readScalarView's answer; `update(patch)` writes a patch of it): the tag filter, the page of
 * charts, the smoothing (a draft that moves the charts at once; `commitSmoothing` writes it when
 * the user lets go), the horizontal axis and each chart's log axis. `selectedTags` (a ref) are the
 * tags chosen for charts; `shownTags` those the filter lets through, `pagedTags` the current page's.
 *
 * Returns `{filter, shownTags, currentPage, pagedTags, smoothingDraft, commitSmoothing, xAxis, logYOf, setLogY}`.
 */
export function useScalarControls(view, update, selectedTags) {
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
  const xAxis = computed({
    get: () => view.value.xAxis,
    set: (value) => update({ xAxis: value }),
  })
  const logYOf = (tag) => view.value.logY.includes(tag)
  function setLogY(tag, on) {
    const others = view.value.logY.filter((item) => item !== tag)
    update({ logY: on ? [...others, tag] : others })
  }

  return { filter, shownTags, currentPage, pagedTags, smoothingDraft, commitSmoothing, xAxis, logYOf, setLogY }
}
