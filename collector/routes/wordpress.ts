import { newSiteKey } from '../core/keys';
import type { ApiKey } from '../core/records';
import { setupUrls, snippet, type Links } from '../core/setupUrls';
import { CHECK_IN_INTERVAL, CONNECTIVITY_CHECK_SINCE, normalizeSiteUrl, registrationTarget, sameOutcome, versionAtLeast, type ActionOutcome } from '../core/wordpress';
import { apiError } from '../http/apiError';
import { findSite, requireSiteAccess } from '../http/auth';
import { defineRoute, type Route } from '../http/route';
import { ActionResultsSchema, ActionSchema, CheckInSchema, WordPressRegisterSchema } from '../schemas/wordpress';
import type { Store } from '../store/contract';
import { ActionResultsAnswerSchema, CheckInAnswerSchema, SiteActionSchema, WordPressRegistrationSchema } from '../schemas/answers/wordpressAnswers';

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
      responses: {
        200: { description: 'Already registered', schema: WordPressRegistrationSchema },
        201: { description: 'Registered', schema: WordPressRegistrationSchema },
        404: "unknown_site: the key's site, or the one the install is registered for, has just been given a new key (`site rotate-key`)",
        409: "origin_not_in_site (a site's key registers only URLs within its site's origins), site_url_taken (another site's install), origin_ambiguous (several sites allow the origin)",
      },
      async handle({ event, apiKey, body }) {
        const url = normalizeSiteUrl(body.site_url);
        const origin = new URL(url).origin;
        const name = body.site_name || new URL(url).host;
        const existing = await store.wordpress.findByUrl(url);
        const keySite = apiKey!.site_key === undefined ? undefined : await findSite(store, apiKey!.site_key);
        const target = registrationTarget({
          keySite,
          install: existing,
          origin,
          sites: keySite || existing ? [] : await store.sites.list(),
        });
        if ('conflict' in target) throw apiError(409, target.conflict, target.message);
        const siteKey =
          'create' in target ? (await store.sites.create({ site_key: newSiteKey(), name, allowed_origins: [origin] })).site_key : target.site_key;
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
          // The plain async tag, without the early-capture stub (docs/early-capture.md): the
          // specification leaves register's answer and what the plugin does with it unshown (section
          // 4), says only that the plugin loads the beacon script from its assigned host (section 1),
          // and gives the plugin CSP header features (section 4, /v1/csp-projects) whose policies
          // carry no hash for an inline script: a stub there would be blocked on every page, and
          // report a violation of its own. Installed plugins keep the tag they were built for.
          snippet: snippet(urls, siteKey, { stub: false }),
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
      responses: { 200: { description: 'Pending actions', schema: CheckInAnswerSchema }, 404: 'unknown_site' },
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
      responses: { 200: { description: 'Recorded', schema: ActionResultsAnswerSchema }, 404: 'unknown_site or unknown_action', 409: 'action_completed: another result for an action already completed' },
      async handle({ apiKey, body }) {
        const siteKey = await installedSite(apiKey!, body.site_key);
        // All or nothing: a result for an action this site was never given, or a different result
        // for an action already completed (here or earlier in this request), is refused before any
        // is recorded. The same result again is a retry: answered alike, written once.
        const outcomes = new Map<number, ActionOutcome>();
        for (const { action_id, status, message, result } of body.results) {
          const reported = { status, message, result };
          const action = await store.actions.get(action_id);
          if (!action || action.site_key != siteKey) {
            throw apiError(404, 'unknown_action', `no action ${action_id} was queued for the site "${siteKey}"`);
          }
          const recorded = outcomes.get(action_id) ?? (action.status == 'pending' ? undefined : (action as ActionOutcome));
          if (recorded && !sameOutcome(recorded, reported)) {
            throw apiError(409, 'action_completed', `action ${action_id} is already completed (${recorded.status}) with another result`);
          }
          if (action.status == 'pending') outcomes.set(action_id, reported);
        }
        for (const [actionId, outcome] of outcomes) await store.actions.complete(actionId, outcome);
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
      responses: { 201: { description: 'Queued', schema: SiteActionSchema } },
      async handle({ event, site, body }) {
        event.res.status = 201;
        return store.actions.add(site!.site_key, body);
      },
    }),
  ];
};

