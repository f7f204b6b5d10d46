/** Runs `worker(item)` for every item with at most `limit` running at once; resolves when all settle. */
export async function forEachLimit(items, limit, worker) {
  const queue = [...items]
  const runners = Array.from({ length: Math.max(1, Math.min(limit, queue.length)) }, async () => {
    while (queue.length) {
      const item = queue.shift()
      await worker(item)
    }
  })
  await Promise.all(runners)
}
