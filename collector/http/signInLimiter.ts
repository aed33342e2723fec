import { SIGN_IN_FAILURES } from '../core/sessions';

/**
 * Failed sign-ins per key (a client IP, an email) in a sliding window: `blockedFor(key)` answers
 * the milliseconds until the key may try again (0: now). Bounded like rateLimiter.ts: past
 * `maxKeys` keys the oldest is forgotten, so a flood of addresses or emails cannot grow memory.
 *
 * @example
 * const limiter = createSignInLimiter();
 * if (limiter.blockedFor(ip) > 0) refuse(); else if (!ok) limiter.fail(ip);
 */
export const createSignInLimiter = ({
  max = SIGN_IN_FAILURES.max,
  windowMs = SIGN_IN_FAILURES.windowMs,
  maxKeys = 100_000,
  now = () => Date.now(),
}: { max?: number; windowMs?: number; maxKeys?: number; now?: () => number } = {}) => {
  const failures = new Map<string, number[]>();
  const recent = (key: string, time: number) => (failures.get(key) ?? []).filter((at) => at > time - windowMs);
  return {
    blockedFor(key: string): number {
      const time = now();
      const times = recent(key, time);
      return times.length >= max ? times[times.length - max]! + windowMs - time : 0;
    },
    fail(key: string) {
      const time = now();
      const times = recent(key, time);
      times.push(time);
      failures.delete(key);
      if (failures.size >= maxKeys) failures.delete(failures.keys().next().value!);
      failures.set(key, times.slice(-max));
    },
  };
};
