import type * as v from 'valibot';
import { buildPageVitals } from '../core/pageVitals';
import type { PagesViewSchema } from '../schemas/answers/readViews';
import type { Store } from '../store/contract';
import type { SessionDevice } from '../store/contract/performanceSessions';
import { rangeOf } from './range';

/**
 * `GET /api/v1/sites/{site_key}/pages`: per route (docs/vitals.md, "Routes"), most sessions first, its sessions and per metric
 * the p75 with its rating, since `since` (default 7 days; as asked, not bounded to a series); with
 * `device`, of the sessions of that kind of device alone (docs/vitals.md, "By device").
 *
 * @example
 * const { data } = await readPages(store, site, { since: undefined, limit: 20 });
 */
export const readPages = async (
  store: Store,
  { site_key }: { site_key: string },
  query: { since?: number | undefined; limit: number; device?: SessionDevice | undefined },
  { now = Date.now() }: { now?: number } = {},
): Promise<v.InferInput<typeof PagesViewSchema>> => {
  const { since, iso } = rangeOf(query.since, now, 7, { bounded: false });
  const rows = await store.performance.pages(site_key, { since, limit: query.limit, device: query.device });
  return { site_key, since: iso, device: query.device ?? null, data: buildPageVitals(rows) };
};
