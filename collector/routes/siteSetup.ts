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
    responses: { 200: '{site_key, name, allowed_origins, api_base, ingest_url, app_url, beacon_url, snippet, csp_sources, wordpress, agents, csp_projects}' },
    async handle({ site }) {
      const urls = setupUrls(links);
      const [wordpress, agents, projects] = await Promise.all([
        store.wordpress.get(site!.site_key),
        store.agents.list(site!.site_key),
        store.cspProjects.list(site!.site_key),
      ]);
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
      };
    },
  }),
];
