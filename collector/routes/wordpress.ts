import { getRouterParam, type H3, type H3Event } from 'h3';
import * as v from 'valibot';
import { apiError } from '../http/apiError';
import { requireApiKey, requireSite, requireSiteAccess } from '../http/apiKeys';
import { methodNotAllowed } from '../http/methodNotAllowed';
import { readRequest } from '../http/readRequest';
import { resolveLinks, type Links } from '../links';
import { optionalBounded } from '../schemas/fields';
import type { Store } from '../store/store';

/** The plugin checks in this often (seconds) unless told otherwise. */
export const CHECK_IN_INTERVAL = 3600;
/** The connectivity check needs plugin 1.3.3 or later (spec section 9). */
const CONNECTIVITY_CHECK_SINCE = [1, 3, 3];

const version = optionalBounded(32);
const siteUrl = v.pipe(
  v.string(),
  v.maxLength(2048),
  v.url('site_url must be an absolute URL'),
  // valibot runs this check even after v.url failed: a string that is no URL must not throw here.
  v.check((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), 'site_url must be http or https'),
);
const object = v.optional(v.pipe(v.record(v.string(), v.unknown()), v.check((value) => JSON.stringify(value).length <= 8192, 'at most 8 KiB of JSON')));

export const WordPressRegisterSchema = v.object({
  site_url: siteUrl,
  site_name: optionalBounded(200),
  plugin_version: version,
  wordpress_version: version,
  php_version: version,
});
export const CheckInSchema = v.object({
  site_key: v.optional(v.string()),
  plugin_version: version,
  wordpress_version: version,
  php_version: version,
  status: object,
});
export const ActionResultsSchema = v.object({
  site_key: v.optional(v.string()),
  results: v.pipe(
    v.array(
      v.object({
        action_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
        status: v.picklist(['succeeded', 'failed']),
        message: optionalBounded(2000),
        result: object,
      }),
    ),
    v.minLength(1),
    v.maxLength(50),
  ),
});
export const ActionSchema = v.object({
  type: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_.-]{0,63}$/, 'type is a lowercase name, like flush_cache')),
  payload: object,
});

/** `1.3.10` >= `1.3.3`; missing parts are 0, anything after a number is ignored. */
export const versionAtLeast = (version: string | undefined, minimum: number[]) => {
  const parts = (version ?? '').split('.').map((part) => parseInt(part, 10) || 0);
  for (let index = 0; index < minimum.length; index++) {
    if ((parts[index] ?? 0) != minimum[index]) return (parts[index] ?? 0) > minimum[index]!;
  }
  return true;
};

/** One form of a site URL: no trailing slash, no query or fragment. */
const normalizeSiteUrl = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
};

/**
 * The WordPress plugin's endpoints (spec section 4): `register` (idempotent per site URL),
 * `check-in` (versions and status in, pending actions and the next interval out) and
 * `action-results`; and `POST /api/v1/sites/{site_key}/actions` to queue an action.
 */
export const wordpressRoutes = (app: H3, { store, links }: { store: Store; links: Links }) => {
  /** The site a check-in or result is for: the key's own site, or `site_key` in the body for an installation key. */
  const siteOf = async (event: H3Event, bodySiteKey: string | undefined) => {
    const key = await requireApiKey(event, store);
    const siteKey = bodySiteKey ?? key.siteKey;
    if (!siteKey) throw apiError(400, 'invalid_request', 'site_key is required with an installation-wide API key');
    requireSiteAccess(key, siteKey);
    if (!(await store.getWordPressInstall(siteKey))) {
      throw apiError(404, 'unknown_site', `no WordPress install is registered for the site "${siteKey}"`);
    }
    return siteKey;
  };

  app.post('/api/v1/wordpress/register', async (event) => {
    const key = await requireApiKey(event, store);
    const body = await readRequest(event, WordPressRegisterSchema);
    const url = normalizeSiteUrl(body.site_url);
    const existing = await store.findWordPressInstallByUrl(url);
    if (existing) requireSiteAccess(key, existing.site_key);
    let siteKey = existing?.site_key ?? key.siteKey;
    const origin = new URL(url).origin;
    const name = body.site_name || new URL(url).host;
    if (!siteKey) {
      siteKey = (await store.addSite({ name, allowedOrigins: [origin] })).siteKey;
    } else {
      const site = (await store.getSite(siteKey))!;
      if (!site.allowedOrigins.includes(origin)) {
        await store.putSite({ siteKey, name: site.name, allowedOrigins: [...site.allowedOrigins, origin] });
      }
    }
    await store.putWordPressInstall({
      site_key: siteKey,
      site_url: url,
      name,
      plugin_version: body.plugin_version,
      wordpress_version: body.wordpress_version,
      php_version: body.php_version,
    });
    const resolved = resolveLinks(links);
    event.res.status = existing ? 200 : 201;
    return {
      site_key: siteKey,
      site_url: url,
      api_base: resolved.apiBase,
      ingest_url: resolved.ingestUrl,
      app_url: resolved.appUrl,
      legacy_api_base: resolved.legacyApiBase,
      beacon_url: resolved.beaconUrl,
      snippet: resolved.snippet(siteKey),
      features: {
        connectivity_check: versionAtLeast(body.plugin_version, CONNECTIVITY_CHECK_SINCE),
        actions: true,
        csp_projects: true,
      },
      check_in_interval: CHECK_IN_INTERVAL,
    };
  });

  app.post('/api/v1/wordpress/check-in', async (event) => {
    const body = await readRequest(event, CheckInSchema);
    const siteKey = await siteOf(event, body.site_key);
    await store.recordCheckIn(siteKey, body);
    const actions = await store.pendingActions(siteKey);
    return {
      site_key: siteKey,
      actions: actions.map(({ id, type, payload, created_at }) => ({ id, type, payload: payload ?? {}, created_at })),
      next_check_in: CHECK_IN_INTERVAL,
    };
  });

  app.post('/api/v1/wordpress/action-results', async (event) => {
    const body = await readRequest(event, ActionResultsSchema);
    const siteKey = await siteOf(event, body.site_key);
    // All or nothing: a result for an action this site was never given is refused before any is recorded.
    for (const result of body.results) {
      const action = await store.getAction(result.action_id);
      if (!action || action.site_key != siteKey) {
        throw apiError(404, 'unknown_action', `no action ${result.action_id} was queued for the site "${siteKey}"`);
      }
    }
    for (const { action_id, status, message, result } of body.results) {
      await store.completeAction(action_id, { status, message, result });
    }
    return { recorded: body.results.length };
  });

  app.post('/api/v1/sites/:site_key/actions', async (event) => {
    const { site } = await requireSite(event, store, getRouterParam(event, 'site_key')!);
    const body = await readRequest(event, ActionSchema);
    event.res.status = 201;
    return store.addAction(site.siteKey, body);
  });

  for (const path of ['/api/v1/wordpress/register', '/api/v1/wordpress/check-in', '/api/v1/wordpress/action-results', '/api/v1/sites/:site_key/actions']) {
    methodNotAllowed(app, path, ['POST']);
  }
};
