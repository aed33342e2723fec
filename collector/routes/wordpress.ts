import { newSiteKey } from '../core/keys';
import type { ApiKey } from '../core/records';
import { setupUrls, snippet, type Links } from '../core/setupUrls';
import { CHECK_IN_INTERVAL, CONNECTIVITY_CHECK_SINCE, normalizeSiteUrl, versionAtLeast } from '../core/wordpress';
import { apiError } from '../http/apiError';
import { requireSiteAccess } from '../http/auth';
import { defineRoute, type Route } from '../http/route';
import { ActionResultsSchema, ActionSchema, CheckInSchema, WordPressRegisterSchema } from '../schemas/wordpress';
import type { Store } from '../store/contract';

/**
 * The WordPress plugin's endpoints (spec section 4): `register` (idempotent per site URL),
 * `check-in` (versions and status in, pending actions and the next interval out) and
 * `action-results`; and `POST /api/v1/sites/{site_key}/actions` to queue an action.
 */
export const wordpressRoutes = ({ store, links }: { store: Store; links: Links }): Route[] => {
  /** The site a check-in or result is for: the key's own site, or `site_key` in the body for an installation key. */
  const installedSite = async (apiKey: ApiKey, bodySiteKey: string | undefined) => {
    const siteKey = bodySiteKey ?? apiKey.site_key;
    if (!siteKey) throw apiError(400, 'invalid_request', 'site_key is required with an installation-wide API key');
    requireSiteAccess(apiKey, siteKey);
    if (!(await store.wordpress.get(siteKey))) {
      throw apiError(404, 'unknown_site', `no WordPress install is registered for the site "${siteKey}"`);
    }
    return siteKey;
  };

  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/wordpress/register',
      tag: 'WordPress',
      summary: 'Register a WordPress install (idempotent per site URL): answers the site key, API base, ingest and app URLs, snippet and features',
      auth: 'apiKey',
      body: { schema: WordPressRegisterSchema },
      responses: { 200: 'Already registered', 201: 'Registered' },
      async handle({ event, apiKey, body }) {
        const url = normalizeSiteUrl(body.site_url);
        const existing = await store.wordpress.findByUrl(url);
        if (existing) requireSiteAccess(apiKey!, existing.site_key);
        let siteKey = existing?.site_key ?? apiKey!.site_key;
        const origin = new URL(url).origin;
        const name = body.site_name || new URL(url).host;
        if (!siteKey) {
          siteKey = (await store.sites.create({ site_key: newSiteKey(), name, allowed_origins: [origin] })).site_key;
        } else {
          const site = (await store.sites.get(siteKey))!;
          if (!site.allowed_origins.includes(origin)) {
            await store.sites.put({ site_key: siteKey, name: site.name, allowed_origins: [...site.allowed_origins, origin] });
          }
        }
        await store.wordpress.put({
          site_key: siteKey,
          site_url: url,
          name,
          plugin_version: body.plugin_version,
          wordpress_version: body.wordpress_version,
          php_version: body.php_version,
        });
        const urls = setupUrls(links);
        event.res.status = existing ? 200 : 201;
        return {
          site_key: siteKey,
          site_url: url,
          ...urls,
          snippet: snippet(urls, siteKey),
          features: {
            connectivity_check: versionAtLeast(body.plugin_version, CONNECTIVITY_CHECK_SINCE),
            actions: true,
            csp_projects: true,
          },
          check_in_interval: CHECK_IN_INTERVAL,
        };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/wordpress/check-in',
      tag: 'WordPress',
      summary: 'Versions and status in; pending actions and the next interval out',
      auth: 'apiKey',
      body: { schema: CheckInSchema },
      responses: { 200: 'Pending actions', 404: 'unknown_site' },
      async handle({ apiKey, body }) {
        const siteKey = await installedSite(apiKey!, body.site_key);
        await store.wordpress.recordCheckIn(siteKey, body);
        const actions = await store.actions.pending(siteKey);
        return {
          site_key: siteKey,
          actions: actions.map(({ id, type, payload, created_at }) => ({ id, type, payload: payload ?? {}, created_at })),
          next_check_in: CHECK_IN_INTERVAL,
        };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/wordpress/action-results',
      tag: 'WordPress',
      summary: "Each action's outcome",
      auth: 'apiKey',
      body: { schema: ActionResultsSchema },
      responses: { 200: 'Recorded', 404: 'unknown_site or unknown_action' },
      async handle({ apiKey, body }) {
        const siteKey = await installedSite(apiKey!, body.site_key);
        // All or nothing: a result for an action this site was never given is refused before any is recorded.
        for (const result of body.results) {
          const action = await store.actions.get(result.action_id);
          if (!action || action.site_key != siteKey) {
            throw apiError(404, 'unknown_action', `no action ${result.action_id} was queued for the site "${siteKey}"`);
          }
        }
        for (const { action_id, status, message, result } of body.results) {
          await store.actions.complete(action_id, { status, message, result });
        }
        return { recorded: body.results.length };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/sites/:site_key/actions',
      tag: 'WordPress',
      summary: 'Queue an action for the WordPress plugin',
      auth: 'siteApiKey',
      body: { schema: ActionSchema },
      responses: { 201: 'Queued' },
      async handle({ event, site, body }) {
        event.res.status = 201;
        return store.actions.add(site!.site_key, body);
      },
    }),
  ];
};

