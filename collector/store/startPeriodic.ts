/** A task `startPeriodic` runs, and how to stop it; see startPeriodic. */
export interface Periodic {
  /** Resolves when the run in progress, if any, has finished. */
  idle(): Promise<void>;
  /** Ends the timer, aborts the run's signal and waits for the run in progress (before the store closes). */
  stop(): Promise<void>;
}

/**
 * The one timer of `serve`'s housekeeping (docs/retention.md; docs/visitors.md): `task` runs at
 * once, then again `delayMs()` after each start, never two runs at a time. The timer is unref'd:
 * it keeps no process alive. A run that fails goes to `onError` and the next runs as planned, so
 * a database outage ends nothing (README, "When the database goes away"). `task` gets a signal
 * aborted by `stop()`, for a run that pauses between batches.
 *
 * @example
 * const sweeps = startPeriodic(async () => void (await store.visitorSalts.prune(visitorDay(Date.now()))), { delayMs: () => 3_600_000, onError: console.error });
 * await sweeps.stop();
 */
export const startPeriodic = (
  task: (signal: AbortSignal) => Promise<unknown>,
  { delayMs, onError = () => {} }: { delayMs: () => number; onError?: (error: unknown) => void },
): Periodic => {
  const stopping = new AbortController();
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    if (stopping.signal.aborted) return;
    timer = setTimeout(tick, delayMs());
    timer.unref();
    if (running) return;
    running = Promise.resolve()
      .then(() => task(stopping.signal))
      .then(() => {}, onError)
      .finally(() => (running = undefined));
  };
  const first = setImmediate(tick);
  return {
    idle: async () => {
      await running;
    },
    async stop() {
      stopping.abort();
      clearImmediate(first);
      clearTimeout(timer);
      await running;
    },
  };
};
