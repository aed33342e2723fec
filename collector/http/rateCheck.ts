import type { H3Event } from 'h3';
import type { Site } from '../core/records';
import { apiError } from './apiError';
import { clientIp } from './clientIp';
import { createRateLimiter, type RateLimits } from './rateLimiter';

/** Answers 429 with `Retry-After` when the client or the site is over its rate. */
export type RateCheck = (event: H3Event, site: Site) => void;

/**
 * The collector's rate check: a token bucket per client IP and one per site. Over either, the
 * answer is 429 `rate_limited` with `Retry-After` in whole seconds (at least 1).
 */
export const createRateCheck = ({ perIp, perSite }: RateLimits, trustProxy: boolean): RateCheck => {
  const byIp = perIp > 0 ? createRateLimiter({ perSecond: perIp }) : undefined;
  const bySite = perSite > 0 ? createRateLimiter({ perSecond: perSite }) : undefined;
  return (event: H3Event, site: Site) => {
    const waitMs = Math.max(byIp?.take(clientIp(event, trustProxy)) ?? 0, bySite?.take(site.site_key) ?? 0);
    if (waitMs > 0) {
      const seconds = String(Math.max(1, Math.ceil(waitMs / 1000)));
      throw apiError(429, 'rate_limited', `too many requests; retry after ${seconds} s`, { 'retry-after': seconds });
    }
  };
};
