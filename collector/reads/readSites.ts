import type * as v from 'valibot';
import type { ApiKey, User } from '../core/records';
import { visibleSites } from '../core/users';
import type { SiteListSchema } from '../schemas/answers/readViews';
import type { Store } from '../store/contract';

/**
 * `GET /api/v1/sites`: the sites a caller may see. A site's key sees its site; an installation key,
 * or a user not limited to some sites, every site.
 *
 * @example
 * const { data } = await readSites(store, { apiKey });
 */
export const readSites = async (store: Store, { apiKey, user }: { apiKey?: ApiKey | undefined; user?: User | undefined }): Promise<v.InferInput<typeof SiteListSchema>> => {
  const sites = await store.sites.list();
  if (user) return { data: visibleSites(user, sites) };
  return { data: apiKey!.site_key === undefined ? sites : sites.filter((site) => site.site_key == apiKey!.site_key) };
};
