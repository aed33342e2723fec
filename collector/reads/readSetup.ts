import type * as v from 'valibot';
import type { Site } from '../core/records';
import { siteSetup, type Links } from '../core/setupUrls';
import type { SiteSetupSchema } from '../schemas/answers/siteSetupAnswer';
import type { Store } from '../store/contract';
import { uncountedGroups } from './countedErrors';

const DAY = 86_400_000;

/**
 * `GET /api/v1/sites/{site_key}/setup`: the site's generated setup (core/setupUrls.ts, with the
 * beacon's SRI value when it is built), its integrations, and the last connectivity check received
 * in 30 days (`sitebeacon check --site`, or the setup page's check from a browser: proof that a
 * machine got through).
 *
 * @example
 * const setup = await readSetup(store, site, { links, integrity: 'sha384-…' });
 */
export const readSetup = async (
  store: Store,
  site: Site,
  { links, integrity }: { links: Links; integrity?: string | undefined },
  { now = Date.now() }: { now?: number } = {},
): Promise<v.InferInput<typeof SiteSetupSchema>> => {
  const [wordpress, agents, projects, checks] = await Promise.all([
    store.wordpress.get(site.site_key),
    store.agents.list(site.site_key),
    store.cspProjects.list(site.site_key),
    uncountedGroups(store, site.site_key, { since: now - 30 * DAY }),
  ]);
  const [check] = checks.sort((a, b) => b.last_seen - a.last_seen);
  return {
    ...siteSetup(links, site, integrity),
    name: site.name,
    wordpress: wordpress ?? null,
    // Never the token hash: the setup page shows what runs, not its credentials.
    agents: agents.map(({ token_hash: _hidden, ...agent }) => agent),
    csp_projects: projects.map(({ id, name, mode, updated_at }) => ({ id, name, mode, updated_at })),
    last_connectivity_check: check ? { at: new Date(check.last_seen).toISOString(), message: check.error_message, reports: check.reports } : null,
  };
};
