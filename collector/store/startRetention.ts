import type { Store } from './contract';

const DAY = 86_400_000;

export interface RetentionOptions {
  /** Reports received, and sessions last updated, more than this many days ago are deleted. */
  days: number;
  /** How often a sweep starts (the first at once). */
  intervalMs?: number;
  /** Rows per transaction: small, so that ingest's commits go between them. */
  batchSize?: number;
  /** Pause between two batches of one sweep. */
  pauseMs?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
}

/**
 * `serve --retention-days N` (../shared/design.md, "Scale-out"): a sweep at once and then every
 * `intervalMs` deletes what is older than N days, `batchSize` rows per transaction with a pause
 * between batches, so ingest keeps answering while a million rows go. `stop()` ends the timer and
 * waits for the batch in progress (before the store closes).
 *
 * @example
 * const retention = startRetention(store, { days: 30 });
 * await retention.stop();
 */
export const startRetention = (
  store: Store,
  { days, intervalMs = 60_000, batchSize = 1000, pauseMs = 20, now = Date.now, onError = () => {} }: RetentionOptions,
) => {
  let stopped = false;
  let sweeping: Promise<void> | undefined;
  let pause: { timer: NodeJS.Timeout; resolve: () => void } | undefined;
  const sweep = async () => {
    const before = now() - days * DAY;
    while (!stopped && (await store.retention.deleteBefore(before, { limit: batchSize })) >= batchSize) {
      await new Promise<void>((resolve) => (pause = { timer: setTimeout(resolve, pauseMs), resolve }));
      pause = undefined;
    }
  };
  const tick = () => {
    if (stopped || sweeping) return;
    sweeping = sweep()
      .catch(onError)
      .finally(() => (sweeping = undefined));
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  setImmediate(tick);
  return {
    /** Resolves when the sweep in progress, if any, has finished. */
    idle: async () => {
      await sweeping;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (pause) {
        clearTimeout(pause.timer);
        pause.resolve();
      }
      await sweeping;
    },
  };
};
