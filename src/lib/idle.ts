// Work that can wait for a quiet moment: it runs once the browser is idle, or after `timeout` ms at
// the latest (Safari has no requestIdleCallback: a short timer there).

/** Runs `task` once the browser is idle; the returned function cancels it. */
export function whenIdle(task: () => void, timeout: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => task(), { timeout });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(task, Math.min(timeout, 200));
  return () => clearTimeout(id);
}
