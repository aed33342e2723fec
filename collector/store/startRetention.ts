import type { Store } from './contract';
import { startPeriodic, type Periodic } from './startPeriodic';

const DAY = 86_400_000;

/** `ms`, or less once `stopping` is aborted: `stop()` does not wait out a pause between batches. */
const pause = (ms: number, stopping: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stopping.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    stopping.addEventListener('abort', done);
  });

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
 * `serve --retention-days N` (docs/retention.md): a sweep at once and then every `intervalMs`
 * (on the housekeeping timer, startPeriodic.ts) deletes what is older than N days, `batchSize`
 * rows per transaction with a pause between batches, so ingest keeps answering while a million
 * rows go. `stop()` ends the timer and waits for the batch in progress (before the store closes).
 *
 * @example
 * const retention = startRetention(store, { days: 30 });
 * await retention.stop();
 */
export const startRetention = (
  store: Store,
  { days, intervalMs = 60_000, batchSize = 1000, pauseMs = 20, now = Date.now, onError = () => {} }: RetentionOptions,
): Periodic => {
  const sweep = async (stopping: AbortSignal) => {
    const before = now() - days * DAY;
    while (!stopping.aborted && (await store.retention.deleteBefore(before, { limit: batchSize })) >= batchSize) {
      await pause(pauseMs, stopping);
    }
  };
  return startPeriodic(sweep, { delayMs: () => intervalMs, onError });
};
