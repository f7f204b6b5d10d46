import { computed } from 'vue'
import { useRoute, useRouter } from 'vue-router'

/**
 * A choice kept in the route query (`?view=top`): reads `name` when it is one of `allowed`, else
 * `fallback`; writing the fallback removes the parameter so default URLs stay short.
 */
export function useQueryChoice(name, allowed, fallback) {
  const route = useRoute()
  const router = useRouter()
  return computed({
    get: () => {
      const value = route.query[name]
      return typeof value === 'string' && allowed.includes(value) ? value : fallback
    },
    set: (value) => {
      const query = { ...route.query }
      if (value === fallback) delete query[name]
      else query[name] = value
      router.replace({ query })
    },
  })
}

/**
 * `patch(changes)` writes several route-query parameters at once (`router.replace`): `undefined`,
 * `null` and `''` remove a parameter, other values are written as strings. With `keepEmpty`,
 * `''` is written too (a list parameter whose empty value means "none", not "the default").
 */
export function useQueryPatch({ keepEmpty = false } = {}) {
  const route = useRoute()
  const router = useRouter()
  return (changes) => {
    const query = { ...route.query }
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === null || (value === '' && !keepEmpty)) delete query[key]
      else query[key] = String(value)
    }
    router.replace({ query })
  }
}
