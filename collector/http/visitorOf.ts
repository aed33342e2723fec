import type { H3Event } from 'h3';
import { visitorDay, visitorHash } from '../core/visitorHash';
import type { VisitorSaltStore } from '../store/contract';

/** A report's visitor: its client's hash under the salt of the day it was received (docs/visitors.md). */
export type VisitorOf = (event: H3Event, siteKey: string, receivedAt: number) => Promise<string>;

/**
 * The visitor of each report, from the client's address as the collector determines it
 * (`clientOf`: http/clientIp.ts, `--trust-proxy`) and its user agent. The day's salt is asked of
 * the store once per day, then kept with the day it is for: ingest makes no query for it
 * (docs/visitors.md, "The salt"). The address is hashed and forgotten; nothing of it reaches the store.
 *
 * @example
 * const visitorOf = createVisitorOf({ salts: store.visitorSalts, clientOf: (event) => clientIp(event, trustProxy) });
 * const visitor = await visitorOf(event, site.site_key, Date.now()); // '9f2c4a1b0e3d5c6f'
 */
export const createVisitorOf = ({ salts, clientOf }: { salts: Pick<VisitorSaltStore, 'salt'>; clientOf: (event: H3Event) => string }): VisitorOf => {
  let current: { day: number; salt: Promise<Uint8Array> } | undefined;
  const saltOf = (day: number) => {
    if (current?.day !== day) {
      const entry = { day, salt: salts.salt(day) };
      current = entry;
      // A failed lookup is not kept: the next report asks again.
      entry.salt.catch(() => {
        if (current === entry) current = undefined;
      });
    }
    return current.salt;
  };
  return async (event, siteKey, receivedAt) =>
    visitorHash(await saltOf(visitorDay(receivedAt)), { siteKey, address: clientOf(event), userAgent: event.req.headers.get('user-agent') ?? '' });
};
