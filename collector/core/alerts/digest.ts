import { alertHeadline, type Alert } from './alert';

/**
 * A site's alert rate (docs/alerts.md, "The digest"): past 10 alerts in 10 minutes, a site's
 * further alerts become one digest, so that a burst (a deploy that breaks every page) is one
 * message more, not a hundred.
 */
export const ALERT_RATE = { count: 10, windowMs: 10 * 60_000 } as const;

/** What to do with a site's waiting alerts now. */
export interface DigestPlan {
  /** Sent now, each on its own. */
  send: Alert[];
  /** Held: they go out as one digest at `digestAt`. Empty when nothing is past the rate. */
  held: Alert[];
  digestAt: Date | undefined;
}

/**
 * Splits a site's waiting alerts (oldest first) into those sent now and those held for a digest.
 * `sentAt` are the times of the site's alerts already sent (digests included); those within the
 * last window take their places in the rate. A digest goes out at most once a window: at the end
 * of the window after the last one (`lastDigestAt`), or now.
 *
 * @example
 * planDigest({ waiting, sentAt: [], lastDigestAt: undefined, now }); // { send: the first 10, held: the rest, digestAt: now }
 */
export const planDigest = (input: { waiting: readonly Alert[]; sentAt: readonly Date[]; lastDigestAt: Date | undefined; now: Date }): DigestPlan => {
  const { waiting, sentAt, lastDigestAt, now } = input;
  const windowStart = now.getTime() - ALERT_RATE.windowMs;
  const recent = sentAt.filter((time) => time.getTime() > windowStart && time.getTime() <= now.getTime()).length;
  const places = Math.max(0, ALERT_RATE.count - recent);
  const send = waiting.slice(0, places);
  const held = waiting.slice(places);
  if (!held.length) return { send, held, digestAt: undefined };
  const nextDigest = lastDigestAt ? lastDigestAt.getTime() + ALERT_RATE.windowMs : now.getTime();
  return { send, held, digestAt: new Date(Math.max(now.getTime(), nextDigest)) };
};

/** How many held alerts a digest names; it counts them all. */
const DIGEST_HEADLINES = 10;

/**
 * The one alert that stands for `held` (one site's, oldest first): kind `digest`, its count, the
 * first headlines, and the site's dashboard page as its link.
 *
 * @example
 * digestAlert(held, { id: 'd-1', url: 'https://beacon.shop.example/sites/shop', now });
 */
export const digestAlert = (held: readonly Alert[], options: { id: string; url: string; now: Date }): Alert => {
  const first = held[0];
  if (!first) throw new Error('a digest needs at least one held alert');
  return {
    id: options.id,
    kind: 'digest',
    site: first.site,
    digest: { count: held.length, headlines: held.slice(0, DIGEST_HEADLINES).map(alertHeadline), since: first.created_at },
    url: options.url,
    created_at: options.now.toISOString(),
  };
};
