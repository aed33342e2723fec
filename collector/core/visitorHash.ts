import { createHmac } from 'node:crypto';

const DAY_MS = 86_400_000;

/**
 * The UTC day a time falls on, as days since the epoch: the day a visitor salt is for
 * (docs/visitors.md).
 *
 * @example
 * visitorDay(Date.UTC(2026, 0, 2, 23, 59)) // 20455
 */
export const visitorDay = (time: number) => Math.floor(time / DAY_MS);

/**
 * A visitor: 16 hex characters of HMAC-SHA256, keyed by the day's salt, over the site key, the
 * client's address and its user agent (docs/visitors.md). The address is an input only: without
 * the salt, deleted after its day, the hash cannot be tied back to it, nor one day's visitor to
 * the next day's.
 *
 * @example
 * visitorHash(salt, { siteKey: 'shop', address: '203.0.113.7', userAgent: 'Mozilla/5.0 …' }) // '9f2c4a1b0e3d5c6f'
 */
export const visitorHash = (salt: Uint8Array, { siteKey, address, userAgent }: { siteKey: string; address: string; userAgent: string }) =>
  // NUL separates the fields: no site key, address or header value holds one, so two different
  // triples never hash the same text.
  createHmac('sha256', salt).update(`${siteKey}\0${address}\0${userAgent}`).digest('hex').slice(0, 16);
