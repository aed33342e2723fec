import type { Store } from '../store/contract';
import { startPeriodic, type Periodic } from '../store/startPeriodic';

const DAY = 86_400_000;

/** How long the outbox keeps a delivery that has ended (sent, failed, or sent within a digest): 30 days. */
export const OUTBOX_RETENTION_DAYS = 30;

/**
 * The outbox's retention (docs/alerts.md, "The outbox"): at once and then every `intervalMs` (an
 * hour), on serve's housekeeping timer (store/startPeriodic.ts), the deliveries that ended and were
 * created more than OUTBOX_RETENTION_DAYS ago are deleted, `batchSize` per transaction; pending and
 * retrying ones are kept whatever their age. Runs whatever `--retention-days` says: the outbox
 * grows with every alert.
 *
 * @example
 * const pruning = startOutboxRetention(store, { onError: console.error });
 * await pruning.stop();
 */
export const startOutboxRetention = (
  store: Store,
  { intervalMs = 3_600_000, batchSize = 1000, now = Date.now, onError = () => {} }: { intervalMs?: number; batchSize?: number; now?: () => number; onError?: (error: unknown) => void } = {},
): Periodic =>
  startPeriodic(
    async (stopping) => {
      const before = now() - OUTBOX_RETENTION_DAYS * DAY;
      while (!stopping.aborted && (await store.alerts.pruneOutbox(before, { limit: batchSize })) >= batchSize);
    },
    { delayMs: () => intervalMs, onError },
  );
