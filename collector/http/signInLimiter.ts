import { SIGN_IN_FAILURES } from '../core/sessions';

/** One sign-in counted under a key: running until it ends, then a failure at `at` or gone. */
interface Entry {
  at: number;
  running: boolean;
}

/**
 * Sign-in attempts per key (a client IP, an email) in a sliding window: `blockedFor(key)` answers
 * the milliseconds until the key may try again (0: now). An attempt counts from its `start`, before
 * its password is hashed, so parallel attempts cannot all pass the check before any has failed;
 * it then becomes a failure (`fail`) or is given back (`withdraw`: signed in, or never checked).
 * Bounded like rateLimiter.ts: past `maxKeys` keys the oldest is forgotten, so a flood of addresses
 * or emails cannot grow memory.
 *
 * @example
 * const limiter = createSignInLimiter();
 * if (limiter.blockedFor(ip) > 0) refuse();
 * const attempt = limiter.start(ip);
 * (await verify()) ? attempt.withdraw() : attempt.fail();
 */
export const createSignInLimiter = ({
  max = SIGN_IN_FAILURES.max,
  windowMs = SIGN_IN_FAILURES.windowMs,
  maxKeys = 100_000,
  now = () => Date.now(),
}: { max?: number; windowMs?: number; maxKeys?: number; now?: () => number } = {}) => {
  const entries = new Map<string, Entry[]>();
  // A running attempt ages out as a failure would: one that never ends cannot block its key for good.
  const live = (key: string, time: number) => (entries.get(key) ?? []).filter((entry) => entry.at > time - windowMs);
  /** Keeps the running attempts and the newest `max` failures: older ones can no longer decide. */
  const save = (key: string, list: Entry[]) => {
    const failures = list.filter((entry) => !entry.running).sort((a, b) => a.at - b.at);
    const kept = [...list.filter((entry) => entry.running), ...failures.slice(-max)];
    entries.delete(key);
    if (kept.length == 0) return;
    if (entries.size >= maxKeys) entries.delete(entries.keys().next().value!);
    entries.set(key, kept);
  };
  return {
    blockedFor(key: string): number {
      const time = now();
      const times = live(key, time).map((entry) => entry.at).sort((a, b) => a - b);
      return times.length >= max ? Math.max(1, times[times.length - max]! + windowMs - time) : 0;
    },
    /** A failure that had no `start` (counted at once). */
    fail(key: string) {
      const time = now();
      save(key, [...live(key, time), { at: time, running: false }]);
    },
    /** An attempt that counts from now until it ends. */
    start(key: string) {
      const time = now();
      const entry: Entry = { at: time, running: true };
      save(key, [...live(key, time), entry]);
      const end = (failed: boolean) => {
        if (!entry.running) return;
        entry.running = false;
        entry.at = now();
        const list = entries.get(key);
        // Forgotten meanwhile (a flood of keys): there is nothing to record it in.
        if (!list?.includes(entry)) return;
        save(key, failed ? list : list.filter((other) => other != entry));
      };
      return { fail: () => end(true), withdraw: () => end(false) };
    },
  };
};
