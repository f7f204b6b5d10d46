// The trainings of the scalars comparison page: which are chosen (the `runs` query, at most
// MAX_RUNS; absent = the first DEFAULT_RUNS, as the original), and the colour of each. A training
// keeps its colour while it stays chosen and across reloads (the colours are remembered), so
// choosing or dropping another one never repaints it.
import { decodeTagList, encodeTagList } from './tagQuery.js'

/** Most trainings one comparison draws (MAX_COMPARED_SCALAR_JOBS in mindinsight/conf/limits.py). */
export const MAX_RUNS = 100
/** The trainings chosen when the URL names none: the first five, as the original. */
export const DEFAULT_RUNS = 5

// OKLab -> linear sRGB (Björn Ottosson's matrices), for colours of an even lightness.
function oklabToLinear(L, a, b) {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ]
}

/** The hex colour of OKLCH lightness `L`, chroma `C` (lowered until it fits sRGB) and hue (radians). */
function oklchHex(L, C, hue) {
  let chroma = C
  let rgb = oklabToLinear(L, chroma * Math.cos(hue), chroma * Math.sin(hue))
  while (chroma > 0 && rgb.some((channel) => channel < 0 || channel > 1)) {
    chroma = Math.max(0, chroma - 0.01)
    rgb = oklabToLinear(L, chroma * Math.cos(hue), chroma * Math.sin(hue))
  }
  const encode = (c) => {
    const value = Math.min(1, Math.max(0, c))
    const srgb = value <= 0.0031308 ? 12.92 * value : 1.055 * value ** (1 / 2.4) - 0.055
    return Math.round(srgb * 255)
      .toString(16)
      .padStart(2, '0')
  }
  return `#${rgb.map(encode).join('')}`
}

/**
 * MAX_RUNS colours told apart on the theme's background: the chart theme's own (`base`) first,
 * then hues a golden angle apart, each at one of three lightness steps (even in perceived
 * lightness: OKLCH), so neighbours in the list never look alike and every one keeps a contrast of
 * at least 3:1 with the chart's background (lighter on the dark theme).
 * @param {string[]} base
 * @param {boolean} [dark]
 */
export function runPalette(base, dark = false, size = MAX_RUNS) {
  const colors = base.slice(0, size)
  const lightness = dark ? [0.74, 0.66, 0.82] : [0.55, 0.47, 0.6]
  for (let index = colors.length; index < size; index += 1) {
    const hue = (((index * 137.508) % 360) * Math.PI) / 180
    colors.push(oklchHex(lightness[index % 3], 0.15, hue))
  }
  return colors
}

/** The chosen trainings: those of the query that exist, in list order, at most MAX_RUNS (none: the first DEFAULT_RUNS). */
export function chosenRuns(queryValue, allRuns) {
  if (queryValue === undefined || queryValue === null) return allRuns.slice(0, DEFAULT_RUNS)
  const wanted = new Set(decodeTagList(String(queryValue)))
  return allRuns.filter((run) => wanted.has(run)).slice(0, MAX_RUNS)
}

/** The trainings the `runs` query names (whether they exist or not). */
export function namedRuns(queryValue) {
  return queryValue === undefined || queryValue === null ? [] : decodeTagList(String(queryValue))
}

/** The query value of a choice (undefined for the default). */
export function runsToQuery(runs, allRuns) {
  const first = allRuns.slice(0, DEFAULT_RUNS)
  const isDefault = runs.length === first.length && runs.every((run, index) => run === first[index])
  return isDefault ? undefined : encodeTagList(runs)
}

/**
 * Colour indexes `{run: index}` for the chosen runs: a run keeps the index it had (`previous`)
 * unless an earlier chosen run already holds it; the others take the lowest free index.
 */
export function assignColors(runs, previous = {}, paletteSize = MAX_RUNS) {
  const assigned = {}
  const used = new Set()
  const waiting = []
  for (const run of runs) {
    const index = previous[run]
    if (Number.isInteger(index) && index >= 0 && index < paletteSize && !used.has(index)) {
      assigned[run] = index
      used.add(index)
    } else {
      waiting.push(run)
    }
  }
  for (const run of waiting) {
    let index = 0
    while (used.has(index) && index < paletteSize - 1) index += 1
    assigned[run] = index
    used.add(index)
  }
  return assigned
}

/** Every tag of the chosen runs, in the order first seen. */
export function tagUnion(tagLists) {
  return [...new Set(tagLists.flat())]
}
