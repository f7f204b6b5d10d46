// Pure helpers of the training dashboard's cards.

/** Records the loader skipped in a job's files: `skipped_records` (missing on older servers = 0). */
export function skippedRecords(job) {
  const count = Number(job?.skipped_records)
  return Number.isFinite(count) && count > 0 ? Math.floor(count) : 0
}

/**
 * Files of a job the server could not read: `unreadable_files` as `[{path, reason}]` (missing on
 * older servers = none; entries without a path are dropped).
 */
export function unreadableFiles(job) {
  const files = job?.unreadable_files
  if (!Array.isArray(files)) return []
  return files
    .filter((file) => file && typeof file.path === 'string' && file.path)
    .map((file) => ({ path: file.path, reason: typeof file.reason === 'string' ? file.reason : '' }))
}

/**
 * Whether the dashboard should mention damaged data: skipped records, or a job not intact for
 * another reason than unreadable files (those are listed on their own).
 */
export function dataHealth(job) {
  const skipped = skippedRecords(job)
  const otherwise = job?.is_integrity === false && !unreadableFiles(job).length
  return { skipped, damaged: Boolean(job) && (otherwise || skipped > 0) }
}

/** Tags of one plugin from a plugins answer (an empty list when absent). */
export function tagsOf(plugins, name) {
  const tags = plugins?.[name]
  return Array.isArray(tags) ? tags : []
}

/** `current` when the job still has it, else the first tag ('' when there is none). */
export function keepOrFirst(tags, current) {
  return current && tags.includes(current) ? current : tags[0] || ''
}
