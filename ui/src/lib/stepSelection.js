// Which retained step a per-tag step slider shows after its list of steps was (re)loaded. The
// server keeps a random sample of steps (always the latest one), so a refresh can drop the step a
// user chose; a slider left at the latest step keeps following new steps.

/**
 * Index into `steps` (ascending step numbers) to show: the latest when `followLatest` or nothing was
 * chosen, else the chosen step if it is still retained, else the nearest retained step.
 */
export function pickStepIndex(steps, chosenStep, followLatest) {
  if (!steps.length) return -1
  const last = steps.length - 1
  if (followLatest || chosenStep === null || chosenStep === undefined) return last
  let best = last
  for (let i = 0; i < steps.length; i += 1) {
    if (steps[i] === chosenStep) return i
    if (Math.abs(steps[i] - chosenStep) < Math.abs(steps[best] - chosenStep)) best = i
  }
  return best
}

/** Entries sorted by step (the server's order is not promised). */
export function sortBySteps(entries) {
  return [...entries].sort((a, b) => a.step - b.step)
}
