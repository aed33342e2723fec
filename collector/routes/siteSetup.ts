import { isConnectivityCheck } from '../core/connectivityCheck';
import { cspSources, setupUrls, snippet, type Links } from '../core/setupUrls';
import { defineRoute, type Route } from '../http/route';
import type { Store } from '../store/contract';

/**
 * `GET /api/v1/sites/{site_key}/setup` (design, "Connectivity diagnosis"): what a site needs to be
 * set up, as the setup page shows it: the generated URLs and script tag (core/setupUrls.ts, the one
 * snippet builder), the CSP sources the page needs, the allowed origins, and the site's integrations.
 */
export const siteSetupRoutes = ({ store, links }: { store: Store; links: Links }): Route[] => [
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites/:site_key/setup',
    tag: 'Read API',
    summary: "A site's setup: URLs, script tag, CSP sources, allowed origins, WordPress install, server agents, CSP projects",
    auth: 'siteApiKey',
    responses: { 200: '{site_key, name, allowed_origins, api_base, ingest_url, app_url, beacon_url, snippet, csp_sources, wordpress, agents, csp_projects, last_connectivity_check (the last `sitebeacon check --site` submission in 30 days)}' },
    async handle({ site }) {
      const urls = setupUrls(links);
      const [wordpress, agents, projects, groups] = await Promise.all([
        store.wordpress.get(site!.site_key),
        store.agents.list(site!.site_key),
        store.cspProjects.list(site!.site_key),
        store.errors.groups(site!.site_key, { since: Date.now() - 30 * 86_400_000, limit: 1000 }),
      ]);
      // The last `sitebeacon check --site` submission that reached this site: proof that a machine got through.
      const [check] = groups.filter(isConnectivityCheck).sort((a, b) => b.last_seen - a.last_seen);
      return {
        site_key: site!.site_key,
        name: site!.name,
        allowed_origins: site!.allowed_origins,
        ...urls,
        snippet: snippet(urls, site!.site_key),
        csp_sources: cspSources(urls),
        wordpress: wordpress ?? null,
        // Never the token hash: the setup page shows what runs, not its credentials.
        agents: agents.map(({ token_hash: _hidden, ...agent }) => agent),
        csp_projects: projects.map(({ id, name, mode, updated_at }) => ({ id, name, mode, updated_at })),
        last_connectivity_check: check ? { at: new Date(check.last_seen).toISOString(), message: check.error_message, reports: check.reports } : null,
      };
    },
  }),
];
