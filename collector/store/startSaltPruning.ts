import { visitorDay } from '../core/visitorHash';
import type { VisitorSaltStore } from './contract';
import { startPeriodic } from './startPeriodic';

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** After midnight by this much: a timer that fires a little early still sees the new day. */
const PAST_MIDNIGHT = 1000;

/**
 * `serve`'s deletion of the visitor salts older than yesterday (docs/visitors.md, "The salt"): at
 * start, then every hour and just after each UTC midnight, whether or not reports arrive, so an
 * idle collector keeps no old salt. On the housekeeping timer (startPeriodic.ts); a failed prune
 * goes to `onError` and the next one tries again. Several processes on one PostgreSQL database
 * each prune: a DELETE by day, idempotent.
 *
 * @example
 * const pruning = startSaltPruning(store.visitorSalts, { onError: logError });
 * await pruning.stop();
 */
export const startSaltPruning = (
  salts: VisitorSaltStore,
  { intervalMs = HOUR, now = Date.now, onError }: { intervalMs?: number; now?: () => number; onError?: (error: unknown) => void } = {},
) =>
  startPeriodic(() => salts.prune(visitorDay(now())), {
    delayMs: () => Math.min(intervalMs, DAY - (now() % DAY) + PAST_MIDNIGHT),
    onError,
  });
