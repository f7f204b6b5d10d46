// The summary list's "Profiling" link: the profiler page of a job's profiler directory, by
// profiler type (gpu and cpu have their own pages, every other type the Ascend one), with the
// original's query names. Jobs without a profiler directory get no link (null), and so does
// every job while the app has no page at that path (`hasPage(path)` says whether it has).
const PROFILER_PAGES = { gpu: '/profiling-gpu', cpu: '/profiling-cpu' }

/**
 * @param {import('@/api/answers').TrainJob | null | undefined} job
 * @param {(path: string) => boolean} [hasPage]
 */
export function profilingRoute(job, hasPage = () => true) {
  if (!job?.profiler_dir) return null
  const path = PROFILER_PAGES[job.profiler_type] || '/profiling'
  if (!hasPage(path)) return null
  const query = { dir: job.profiler_dir, id: job.train_id, path: job.relative_path }
  if (job.graph_mode) query.graphMode = job.graph_mode
  return { path, query }
}
