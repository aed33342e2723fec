import type * as v from 'valibot';
import { fillDays } from '../core/dailySeries';
import { errorGroupOf } from '../core/summary';
import type { ErrorGroupsViewSchema } from '../schemas/answers/readViews';
import type { Store } from '../store/contract';
import { countedGroups } from './countedErrors';
import { rangeOf } from './range';

/**
 * `GET /api/v1/sites/{site_key}/error-groups`: the counted error groups (countedErrors.ts) since
 * `since` (default 7 days), most occurrences first, each with its distinct sessions, its visitors
 * (docs/visitors.md) and its reports and occurrences per UTC day.
 *
 * @example
 * const { data } = await readErrorGroups(store, site, { since: undefined, limit: 20 });
 */
export const readErrorGroups = async (
  store: Store,
  { site_key }: { site_key: string },
  query: { since?: number | undefined; limit: number },
  { now = Date.now() }: { now?: number } = {},
): Promise<v.InferInput<typeof ErrorGroupsViewSchema>> => {
  const { since, iso } = rangeOf(query.since, now, 7);
  const rows = await countedGroups(store, site_key, { since, limit: query.limit });
  const data = await Promise.all(
    rows.map(async (row) => ({
      ...errorGroupOf(row),
      sessions: await store.errors.sessions(site_key, { fingerprint: row.fingerprint, since }),
      visitors: await store.errors.visitors(site_key, { fingerprint: row.fingerprint, since }),
      daily: fillDays(since, now, await store.errors.daily(site_key, { fingerprint: row.fingerprint, since }), { reports: 0, count: 0 }),
    })),
  );
  return { site_key, since: iso, data };
};
