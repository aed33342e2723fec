import type * as v from 'valibot';
import { clientCounts } from '../core/clientCounts';
import { fillDays } from '../core/dailySeries';
import { errorGroupOf } from '../core/summary';
import type { ErrorGroupDetailSchema } from '../schemas/answers/readViews';
import type { Store } from '../store/contract';
import { rangeOf } from './range';

/** How many user agents are read to count browsers (several agents make one browser, OS and device). */
const USER_AGENTS_READ = 100;

/**
 * `GET /api/v1/sites/{site_key}/error-groups/{fingerprint}`: one group since `since` (default 30
 * days) with its sessions, its visitors (docs/visitors.md), its latest report (its stack), its
 * days, pages and browsers; undefined when the group has no report in the range.
 *
 * @example
 * const detail = await readErrorGroup(store, site, { fingerprint: '9f2c…', since: undefined, limit: 20 });
 */
export const readErrorGroup = async (
  store: Store,
  { site_key }: { site_key: string },
  query: { fingerprint: string; since?: number | undefined; limit: number },
  { now = Date.now() }: { now?: number } = {},
): Promise<v.InferInput<typeof ErrorGroupDetailSchema> | undefined> => {
  const { since, iso } = rangeOf(query.since, now, 30);
  const { fingerprint, limit } = query;
  const [row] = await store.errors.groups(site_key, { fingerprint, since, limit: 1 });
  if (!row) return undefined;
  const [sessions, visitors, latest, daily, pages, agents] = await Promise.all([
    store.errors.sessions(site_key, { fingerprint, since }),
    store.errors.visitors(site_key, { fingerprint, since }),
    store.errors.latest(site_key, fingerprint),
    store.errors.daily(site_key, { fingerprint, since }),
    store.errors.breakdown(site_key, { fingerprint, field: 'page_url', since, limit }),
    store.errors.breakdown(site_key, { fingerprint, field: 'user_agent', since, limit: USER_AGENTS_READ }),
  ]);
  return {
    site_key,
    since: iso,
    group: { ...errorGroupOf(row), sessions, visitors },
    latest: latest ?? null,
    daily: fillDays(since, now, daily, { reports: 0, count: 0 }),
    pages: pages.map(({ value, reports }) => ({ page_url: value, reports })),
    // Parsed as they are read: reports store the user agent alone.
    browsers: clientCounts(agents).slice(0, limit),
  };
};
