import { describe, expect, test } from 'vitest';
import { useIntegrationsCollector } from '../testing/integrationsCollector';

const kit = useIntegrationsCollector();
const { call, json } = kit;

describe('WordPress', () => {
  const register = (key: string | undefined, body: object = {}) =>
    call('POST', '/api/v1/wordpress/register', key, {
      site_url: 'https://wp.example/blog/',
      site_name: 'WP Blog',
      plugin_version: '1.3.3',
      wordpress_version: '6.8.1',
      php_version: '8.3.0',
      ...body,
    });

  test('register answers the site key, the assigned hosts, the snippet and the features; again, the same site', async () => {
    const first = await register(kit.installationKey);
    expect(first.status).toBe(201);
    const created = await json(first);
    expect(created).toMatchObject({
      site_url: 'https://wp.example/blog',
      api_base: 'https://in.example/api',
      ingest_url: 'https://in.example',
      app_url: 'http://127.0.0.1:8787',
      legacy_api_base: 'http://127.0.0.1:8787/api',
      beacon_url: 'https://in.example/beacon.js',
      features: { connectivity_check: true, actions: true, csp_projects: true },
      check_in_interval: 3600,
    });
    // The plain async tag, without the early-capture stub: the plugin's CSP headers carry no hash for it (routes/wordpress.ts).
    expect(created.snippet).toBe(
      `<script src="https://in.example/beacon.js" data-site-key="${created.site_key}" data-ingest-origin="https://in.example" async></script>`,
    );
    expect((await kit.collector.store.sites.get(created.site_key))!.allowed_origins).toEqual(['https://wp.example']);
    const again = await register(kit.installationKey, { site_url: 'https://wp.example/blog', plugin_version: '1.3.2' });
    expect(again.status).toBe(200);
    const repeated = await json(again);
    expect(repeated.site_key).toBe(created.site_key);
    expect(repeated.features.connectivity_check).toBe(false);
  });

  test("register with a site's key: a URL within the site's origins binds that site; no other URL, and the site's origins never change (registration across sites)", async () => {
    const registered = await register(kit.shopKey, { site_url: 'https://shop.example/wp' });
    expect(registered.status).toBe(201);
    expect((await json(registered)).site_key).toBe(kit.shop);
    // A URL outside the site's origins, or another site's: 409, and nothing changes.
    for (const [key, url] of [[kit.shopKey, 'https://shop-wp.example'], [kit.shopKey, 'https://blog.example/'], [kit.blogKey, 'https://shop.example/wp']]) {
      const refused = await register(key, { site_url: url });
      expect(refused.status, `${url}`).toBe(409);
      expect((await json(refused)).error.code).toBe('origin_not_in_site');
    }
    expect((await kit.collector.store.sites.get(kit.shop))!.allowed_origins).toEqual(['https://shop.example']);
    expect((await kit.collector.store.sites.get(kit.blog))!.allowed_origins).toEqual(['https://blog.example']);
    expect(await kit.collector.store.wordpress.get(kit.blog)).toBeUndefined();
  });

  test("the cross-site registration attack: one site's key registers another site's URL, then the installation's registration of that URL hands out the attacker's site key", async () => {
    // The attacker holds the shop's key and tries to claim the blog's URL.
    const claim = await register(kit.shopKey, { site_url: 'https://blog.example/' });
    expect(claim.status).toBe(409);
    expect((await kit.collector.store.sites.get(kit.shop))!.allowed_origins).not.toContain('https://blog.example');
    // The blog's owner installs the plugin with the installation key: the blog's own site, not the shop's.
    const installed = await json(await register(kit.installationKey, { site_url: 'https://blog.example/' }));
    expect(installed.site_key).toBe(kit.blog);
    expect(installed.snippet).toContain(`data-site-key="${kit.blog}"`);
    // And the shop's key cannot reach it afterwards either.
    expect((await call('POST', '/api/v1/wordpress/check-in', kit.shopKey, { site_key: kit.blog })).status).toBe(403);
  });

  test('with the installation key, a URL whose origin belongs to a site joins that site; a new origin creates one site, once', async () => {
    const sitesBefore = (await kit.collector.store.sites.list()).length;
    expect((await json(await register(kit.installationKey, { site_url: 'https://shop.example/blog' }))).site_key).toBe(kit.shop);
    const created = await json(await register(kit.installationKey, { site_url: 'https://new-wp.example/' }));
    const again = await json(await register(kit.installationKey, { site_url: 'https://new-wp.example/shop' }));
    expect(again.site_key).toBe(created.site_key);
    expect((await kit.collector.store.sites.list()).length).toBe(sitesBefore + 1);
    // Two sites allowing one origin: the operator decides which to join.
    await kit.collector.addSite(['https://twice.example']);
    await kit.collector.addSite(['https://twice.example']);
    const ambiguous = await register(kit.installationKey, { site_url: 'https://twice.example/' });
    expect(ambiguous.status).toBe(409);
    expect((await json(ambiguous)).error.code).toBe('origin_ambiguous');
  });

  test('the whole flow: register, queue an action, check-in receives it, action-results records it, the next check-in no longer lists it', async () => {
    const { site_key: siteKey } = await json(await register(kit.installationKey));
    const siteScopedKey = await kit.collector.apiKey(siteKey);
    const queued = await call('POST', `/api/v1/sites/${siteKey}/actions`, kit.installationKey, { type: 'flush_cache', payload: { scope: 'all' } });
    expect(queued.status).toBe(201);
    const action = await json(queued);

    const checkIn = await json(await call('POST', '/api/v1/wordpress/check-in', siteScopedKey, { plugin_version: '1.4.0', status: { cache: 'on' } }));
    expect(checkIn).toEqual({
      site_key: siteKey,
      actions: [{ id: action.id, type: 'flush_cache', payload: { scope: 'all' }, created_at: expect.any(String) }],
      next_check_in: 3600,
    });
    expect(await kit.collector.store.wordpress.get(siteKey)).toMatchObject({ plugin_version: '1.4.0', status: { cache: 'on' } });

    const results = await call('POST', '/api/v1/wordpress/action-results', siteScopedKey, {
      results: [{ action_id: action.id, status: 'succeeded', message: 'flushed 120 entries' }],
    });
    expect(await json(results)).toEqual({ recorded: 1 });
    expect(await kit.collector.store.actions.get(action.id)).toMatchObject({ status: 'succeeded', message: 'flushed 120 entries' });

    const next = await json(await call('POST', '/api/v1/wordpress/check-in', kit.installationKey, { site_key: siteKey }));
    expect(next.actions).toEqual([]);
  });

  test('a different result for a completed action is 409 action_completed and changes nothing; the same result again is a retry', async () => {
    const { site_key: siteKey } = await json(await register(kit.installationKey));
    const first = await json(await call('POST', `/api/v1/sites/${siteKey}/actions`, kit.installationKey, { type: 'ping' }));
    const second = await json(await call('POST', `/api/v1/sites/${siteKey}/actions`, kit.installationKey, { type: 'ping' }));
    const report = (results: object[]) => call('POST', '/api/v1/wordpress/action-results', kit.installationKey, { site_key: siteKey, results });
    const done = { action_id: first.id, status: 'succeeded', message: 'pong', result: { ms: 3 } };
    expect((await report([done])).status).toBe(200);
    expect((await report([done])).status).toBe(200);
    for (const changed of [{ ...done, status: 'failed' }, { ...done, message: 'other' }, { ...done, result: { ms: 4 } }, { action_id: first.id, status: 'succeeded' }]) {
      const response = await report([{ action_id: second.id, status: 'succeeded' }, changed]);
      expect(response.status).toBe(409);
      expect(await json(response)).toMatchObject({ error: { code: 'action_completed' } });
    }
    // Two different results for one action in one request: refused too.
    const twice = await report([{ action_id: second.id, status: 'succeeded' }, { action_id: second.id, status: 'failed' }]);
    expect(twice.status).toBe(409);
    expect(await kit.collector.store.actions.get(first.id)).toMatchObject({ status: 'succeeded', message: 'pong', result: { ms: 3 } });
    expect((await kit.collector.store.actions.get(second.id))!.status).toBe('pending');
  });

  test('a result for an unknown action, or another site\'s action, is 404 unknown_action and records nothing', async () => {
    const { site_key: siteKey } = await json(await register(kit.installationKey));
    await call('POST', '/api/v1/wordpress/register', kit.installationKey, { site_url: 'https://other-wp.example' });
    const { site_key: otherSite } = await json(await register(kit.installationKey, { site_url: 'https://other-wp.example' }));
    const mine = await json(await call('POST', `/api/v1/sites/${siteKey}/actions`, kit.installationKey, { type: 'ping' }));
    const theirs = await json(await call('POST', `/api/v1/sites/${otherSite}/actions`, kit.installationKey, { type: 'ping' }));
    for (const actionId of [999_999, theirs.id]) {
      const response = await call('POST', '/api/v1/wordpress/action-results', kit.installationKey, {
        site_key: siteKey,
        results: [
          { action_id: mine.id, status: 'succeeded' },
          { action_id: actionId, status: 'failed' },
        ],
      });
      expect(response.status).toBe(404);
      expect(await json(response)).toMatchObject({ error: { code: 'unknown_action' } });
    }
    expect((await kit.collector.store.actions.get(mine.id))!.status).toBe('pending');
    expect((await kit.collector.store.actions.get(theirs.id))!.status).toBe('pending');
  });

  test.each([
    ['register without a key', () => register(undefined), 401, 'unauthorized'],
    ['register with a wrong key', () => register('sbk_wrong'), 401, 'unauthorized'],
    ['register with no site_url', () => call('POST', '/api/v1/wordpress/register', kit.installationKey, { site_name: 'x' }), 400, 'invalid_request'],
    ['register with an ftp site_url', () => register(kit.installationKey, { site_url: 'ftp://wp.example' }), 400, 'invalid_request'],
    // Found by `npm run fuzz`: the protocol check parsed a string that was no URL (a 500).
    ['register with a site_url that is no URL', () => register(kit.installationKey, { site_url: 'cq{W4' }), 400, 'invalid_request'],
    ['register with a NUL in site_name', () => register(kit.installationKey, { site_name: 'Blog\u0000' }), 400, 'invalid_request'],
    ['register with a line break in plugin_version', () => register(kit.installationKey, { plugin_version: '1.3.3\r\nX-Injected: 1' }), 400, 'invalid_request'],
    ['register with bad JSON', () => call('POST', '/api/v1/wordpress/register', kit.installationKey, '{"site_url":'), 400, 'invalid_json'],
    ['check-in of a site that never registered', () => call('POST', '/api/v1/wordpress/check-in', kit.shopKey, {}), 404, 'unknown_site'],
    ['check-in with an installation key and no site_key', () => call('POST', '/api/v1/wordpress/check-in', kit.installationKey, {}), 400, 'invalid_request'],
    ['check-in for another site', () => call('POST', '/api/v1/wordpress/check-in', kit.shopKey, { site_key: kit.blog }), 403, 'forbidden'],
    ['action-results with an empty list', () => call('POST', '/api/v1/wordpress/action-results', kit.shopKey, { results: [] }), 400, 'invalid_request'],
    ['an action with a bad type', () => call('POST', `/api/v1/sites/${kit.shop}/actions`, kit.shopKey, { type: 'Drop Tables' }), 400, 'invalid_request'],
    ['an action for another site', () => call('POST', `/api/v1/sites/${kit.blog}/actions`, kit.shopKey, { type: 'ping' }), 403, 'forbidden'],
    ['an action for an unknown site', () => call('POST', '/api/v1/sites/nope/actions', kit.installationKey, { type: 'ping' }), 404, 'unknown_site'],
  ] as Array<[string, () => Promise<Response>, number, string]>)('%s', async (_name, request, status, code) => {
    const response = await request();
    expect(response.status).toBe(status);
    expect(await json(response)).toMatchObject({ error: { code } });
  });
});
