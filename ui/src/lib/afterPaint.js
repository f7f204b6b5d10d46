const HIDDEN_TAB_MS = 200

/**
 * Calls `callback` once the browser has drawn what the current task put on the page. Work that
 * waits on a first drawing (asking for a module starts a request per file, a few ms of the main
 * thread each; mounting the controls' parts) would otherwise come before that drawing. A hidden
 * tab draws no frames: then after `HIDDEN_TAB_MS`.
 */
export function afterPaint(callback) {
  let done = false
  const run = () => {
    if (done) return
    done = true
    callback()
  }
  requestAnimationFrame(() => setTimeout(run))
  setTimeout(run, HIDDEN_TAB_MS)
}
