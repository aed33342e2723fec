import type { H3Event } from 'h3';
import type { Site } from '../core/records';
import { apiError } from './apiError';
import { clientIp } from './clientIp';
import { createRateLimiter, type RateLimits } from './rateLimiter';

/** Answers 429 with `Retry-After` when the client or the site is over its rate. */
export type RateCheck = (event: H3Event, site: Site) => void;

/**
 * The two buckets in order, as plain data: the milliseconds a request from `ip` to `siteKey` must
 * wait, 0 when it may go. The client's bucket is asked first, and a request it refuses never
 * reaches the site's bucket (docs/access.md, "Rate limits"): a request that is not served takes nothing from
 * the budget the site's other visitors share, so one client flooding a site key uses at most its
 * own rate of the site's, and everyone else keeps getting through.
 *
 * @example
 * const admit = createRateGate({ perIp: 20, perSite: 500 });
 * admit('203.0.113.9', 'a1b2c3') // 0: go
 */
export const createRateGate = ({ perIp, perSite }: RateLimits, now?: () => number) => {
  const byIp = perIp > 0 ? createRateLimiter({ perSecond: perIp, now }) : undefined;
  const bySite = perSite > 0 ? createRateLimiter({ perSecond: perSite, now }) : undefined;
  return (ip: string, siteKey: string): number => {
    const clientWait = byIp?.take(ip) ?? 0;
    if (clientWait > 0) return clientWait;
    return bySite?.take(siteKey) ?? 0;
  };
};

/**
 * The collector's rate check: a token bucket per client IP, then one per site (createRateGate).
 * Over either, the answer is 429 `rate_limited` with `Retry-After` in whole seconds (at least 1).
 */
export const createRateCheck = (limits: RateLimits, trustProxy: boolean): RateCheck => {
  // Both off (`--rate-limit 0 --site-rate-limit 0`): nothing to ask, not even the client's address.
  if (!(limits.perIp > 0) && !(limits.perSite > 0)) return () => {};
  const admit = createRateGate(limits);
  return (event: H3Event, site: Site) => {
    const waitMs = admit(clientIp(event, trustProxy), site.site_key);
    if (waitMs > 0) {
      const seconds = String(Math.max(1, Math.ceil(waitMs / 1000)));
      throw apiError(429, 'rate_limited', `too many requests; retry after ${seconds} s`, { 'retry-after': seconds });
    }
  };
};
