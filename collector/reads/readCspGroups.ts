import type * as v from 'valibot';
import type { CspGroupsViewSchema } from '../schemas/answers/readViews';
import type { Store } from '../store/contract';
import { rangeOf } from './range';

/**
 * `GET /api/v1/sites/{site_key}/csp-groups`: CSP violations by effective directive and blocked
 * host since `since` (default 7 days), most reports first.
 *
 * @example
 * const { data } = await readCspGroups(store, site, { since: undefined, limit: 50 });
 */
export const readCspGroups = async (
  store: Store,
  { site_key }: { site_key: string },
  query: { since?: number | undefined; limit: number },
  { now = Date.now() }: { now?: number } = {},
): Promise<v.InferInput<typeof CspGroupsViewSchema>> => {
  const { since, iso } = rangeOf(query.since, now, 7);
  return { site_key, since: iso, data: await store.csp.groups(site_key, { since, limit: query.limit }) };
};
