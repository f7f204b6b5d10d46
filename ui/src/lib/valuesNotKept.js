// Values of a job the server read and did not keep, as the dashboard's notice lists them (its
// own module: the notice's code, with this, loads only when a job has such values).

const nameOrNull = (value) => (typeof value === 'string' ? value : null)

// A reason's arguments: names to strings and numbers only (anything else is left out).
function reasonArgs(args) {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return {}
  return Object.fromEntries(
    Object.entries(args).filter(([, value]) => typeof value === 'string' || Number.isFinite(value)),
  )
}

function countedEntries(list, fields) {
  if (!Array.isArray(list)) return []
  return list
    .filter((entry) => entry && Number.isFinite(Number(entry.count)) && Number(entry.count) > 0)
    .map((entry) => {
      const out = { count: Math.floor(Number(entry.count)) }
      for (const field of fields) out[field] = nameOrNull(entry[field])
      if (fields.includes('reason')) {
        out.reasonCode = nameOrNull(entry.reason_code)
        out.reasonArgs = reasonArgs(entry.reason_args)
      }
      return out
    })
}

/**
 * Values of a job the server read and did not keep: `unshown` (train-jobs' `unshown_values`, of a
 * kind not shown: `[{plugin, tag, count}]`) and `dropped` (`dropped_values`, refused at reading:
 * `[{plugin, tag, reason, reasonCode, reasonArgs, count}]`: the reason in English, and as a code
 * with its arguments to say it in the user's language). Null names: the values of further tags,
 * counted together. Missing on older servers = none (and a reason without a code: its English).
 */
export function valuesNotKept(job) {
  return {
    unshown: countedEntries(job?.unshown_values, ['plugin', 'tag']),
    dropped: countedEntries(job?.dropped_values, ['plugin', 'tag', 'reason']),
  }
}
