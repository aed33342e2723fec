/**
 * When a failed delivery is tried again (docs/alerts.md, "Retries"): after the first try fails,
 * 30 s, then 2 min, 10 min, 30 min and 2 h; the sixth failed try gives up. About two and three
 * quarter hours in all: long enough for a receiver's restart or a deploy, short enough that an
 * alert still means something when it arrives.
 */
export const RETRY_DELAYS_MS: readonly number[] = [30_000, 120_000, 600_000, 1_800_000, 7_200_000];

/** The tries a delivery gets, the first included, before it is given up (`failed`). */
export const MAX_TRIES = RETRY_DELAYS_MS.length + 1;

/**
 * When to try again after `tries` tries that all failed with a retryable outcome, or undefined
 * when the delivery is given up. A receiver's `Retry-After` (429, 503) can push the time later,
 * never earlier, and at most to the schedule's longest delay.
 *
 * @example
 * nextAttempt(1, new Date('2026-01-01T00:00:00Z')); // 2026-01-01T00:00:30.000Z
 * nextAttempt(6, new Date()); // undefined: given up
 */
export const nextAttempt = (tries: number, now: Date, retryAfterSeconds?: number): Date | undefined => {
  if (!Number.isInteger(tries) || tries < 1 || tries >= MAX_TRIES) return undefined;
  const scheduled = RETRY_DELAYS_MS[tries - 1]!;
  const asked = retryAfterSeconds !== undefined && retryAfterSeconds > 0 ? Math.min(retryAfterSeconds * 1000, RETRY_DELAYS_MS.at(-1)!) : 0;
  return new Date(now.getTime() + Math.max(scheduled, asked));
};
