/** The total time a check may take (`--timeout`), shared by every step. */
export interface Deadline {
  /** Aborted once the total time is spent. */
  signal: AbortSignal;
  /** The total, in milliseconds. */
  totalMs: number;
  /** Milliseconds left, never below 0. */
  remaining: () => number;
  /** Stops the timer (the check is over). */
  dispose: () => void;
}

/**
 * A deadline `totalMs` from now. Every wait of the check is bounded by it, so that the whole run
 * ends within `--timeout` (spec section 8: total time 20 s by default) whatever hangs.
 *
 * @example
 * const deadline = createDeadline(20_000);
 * try { await step(deadline) } finally { deadline.dispose() }
 */
export const createDeadline = (totalMs: number): Deadline => {
  const controller = new AbortController();
  const endsAt = performance.now() + totalMs;
  const timer = setTimeout(() => controller.abort(), totalMs);
  return {
    signal: controller.signal,
    totalMs,
    remaining: () => Math.max(0, endsAt - performance.now()),
    dispose: () => clearTimeout(timer),
  };
};
