import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { verifyManifest, type UpdateManifest } from '../agents/updates';
import { createTestCollector } from '../testing/testCollector';

let collector: ReturnType<typeof createTestCollector>;
let updatesDir: string;
let installationKey: string;
let shop: string;
let blog: string;
let shopKey: string;
let blogKey: string;

const makeKey = (siteKey?: string) => collector.apiKey(siteKey);
const call = (method: string, path: string, key: string | undefined, body?: unknown) =>
  collector.request(path, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body == 'string' ? body : JSON.stringify(body),
  });
const json = async (response: Response) => (await response.json()) as Record<string, any>;

beforeEach(async () => {
  updatesDir = mkdtempSync(join(tmpdir(), 'sitebeacon-updates-'));
  collector = createTestCollector({
    ingestUrl: 'https://in.example',
    agentUpdates: { dir: updatesDir, privateKey: generateKeyPairSync('ed25519').privateKey },
  });
  installationKey = await makeKey();
  shop = await collector.addSite(['https://shop.example'], 'Shop');
  blog = await collector.addSite(['https://blog.example'], 'Blog');
  shopKey = await makeKey(shop);
  blogKey = await makeKey(blog);
});
afterEach(async () => {
  expect(collector.errors).toEqual([]);
  await collector.close();
  rmSync(updatesDir, { recursive: true, force: true });
});

describe('POST /api/v1/verify-api-key', () => {
  test('a valid key: 200 with its scope; a wrong or missing key: 401 {"valid": false}', async () => {
    expect(await json(await call('POST', '/api/v1/verify-api-key', installationKey))).toMatchObject({ valid: true, scope: { type: 'installation' } });
    expect(await json(await call('POST', '/api/v1/verify-api-key', shopKey))).toMatchObject({ valid: true, scope: { type: 'site', site_key: shop } });
    const byHeader = await collector.request('/api/v1/verify-api-key', { method: 'POST', headers: { 'x-api-key': shopKey } });
    expect(byHeader.status).toBe(200);
    for (const key of ['sbk_nope', undefined]) {
      const response = await call('POST', '/api/v1/verify-api-key', key);
      expect(response.status).toBe(401);
      expect(await json(response)).toMatchObject({ valid: false, error: { code: 'unauthorized' } });
    }
  });
});

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
    const first = await register(installationKey);
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
    expect((await collector.store.sites.get(created.site_key))!.allowed_origins).toEqual(['https://wp.example']);
    const again = await register(installationKey, { site_url: 'https://wp.example/blog', plugin_version: '1.3.2' });
    expect(again.status).toBe(200);
    const repeated = await json(again);
    expect(repeated.site_key).toBe(created.site_key);
    expect(repeated.features.connectivity_check).toBe(false);
  });

  test("register with a site's key: a URL within the site's origins binds that site; no other URL, and the site's origins never change (registration across sites)", async () => {
    const registered = await register(shopKey, { site_url: 'https://shop.example/wp' });
    expect(registered.status).toBe(201);
    expect((await json(registered)).site_key).toBe(shop);
    // A URL outside the site's origins, or another site's: 409, and nothing changes.
    for (const [key, url] of [[shopKey, 'https://shop-wp.example'], [shopKey, 'https://blog.example/'], [blogKey, 'https://shop.example/wp']]) {
      const refused = await register(key, { site_url: url });
      expect(refused.status, `${url}`).toBe(409);
      expect((await json(refused)).error.code).toBe('origin_not_in_site');
    }
    expect((await collector.store.sites.get(shop))!.allowed_origins).toEqual(['https://shop.example']);
    expect((await collector.store.sites.get(blog))!.allowed_origins).toEqual(['https://blog.example']);
    expect(await collector.store.wordpress.get(blog)).toBeUndefined();
  });

  test("the cross-site registration attack: one site's key registers another site's URL, then the installation's registration of that URL hands out the attacker's site key", async () => {
    // The attacker holds the shop's key and tries to claim the blog's URL.
    const claim = await register(shopKey, { site_url: 'https://blog.example/' });
    expect(claim.status).toBe(409);
    expect((await collector.store.sites.get(shop))!.allowed_origins).not.toContain('https://blog.example');
    // The blog's owner installs the plugin with the installation key: the blog's own site, not the shop's.
    const installed = await json(await register(installationKey, { site_url: 'https://blog.example/' }));
    expect(installed.site_key).toBe(blog);
    expect(installed.snippet).toContain(`data-site-key="${blog}"`);
    // And the shop's key cannot reach it afterwards either.
    expect((await call('POST', '/api/v1/wordpress/check-in', shopKey, { site_key: blog })).status).toBe(403);
  });

  test('with the installation key, a URL whose origin belongs to a site joins that site; a new origin creates one site, once', async () => {
    const sitesBefore = (await collector.store.sites.list()).length;
    expect((await json(await register(installationKey, { site_url: 'https://shop.example/blog' }))).site_key).toBe(shop);
    const created = await json(await register(installationKey, { site_url: 'https://new-wp.example/' }));
    const again = await json(await register(installationKey, { site_url: 'https://new-wp.example/shop' }));
    expect(again.site_key).toBe(created.site_key);
    expect((await collector.store.sites.list()).length).toBe(sitesBefore + 1);
    // Two sites allowing one origin: the operator decides which to join.
    await collector.addSite(['https://twice.example']);
    await collector.addSite(['https://twice.example']);
    const ambiguous = await register(installationKey, { site_url: 'https://twice.example/' });
    expect(ambiguous.status).toBe(409);
    expect((await json(ambiguous)).error.code).toBe('origin_ambiguous');
  });

  test('the whole flow: register, queue an action, check-in receives it, action-results records it, the next check-in no longer lists it', async () => {
    const { site_key: siteKey } = await json(await register(installationKey));
    const siteScopedKey = await makeKey(siteKey);
    const queued = await call('POST', `/api/v1/sites/${siteKey}/actions`, installationKey, { type: 'flush_cache', payload: { scope: 'all' } });
    expect(queued.status).toBe(201);
    const action = await json(queued);

    const checkIn = await json(await call('POST', '/api/v1/wordpress/check-in', siteScopedKey, { plugin_version: '1.4.0', status: { cache: 'on' } }));
    expect(checkIn).toEqual({
      site_key: siteKey,
      actions: [{ id: action.id, type: 'flush_cache', payload: { scope: 'all' }, created_at: expect.any(String) }],
      next_check_in: 3600,
    });
    expect(await collector.store.wordpress.get(siteKey)).toMatchObject({ plugin_version: '1.4.0', status: { cache: 'on' } });

    const results = await call('POST', '/api/v1/wordpress/action-results', siteScopedKey, {
      results: [{ action_id: action.id, status: 'succeeded', message: 'flushed 120 entries' }],
    });
    expect(await json(results)).toEqual({ recorded: 1 });
    expect(await collector.store.actions.get(action.id)).toMatchObject({ status: 'succeeded', message: 'flushed 120 entries' });

    const next = await json(await call('POST', '/api/v1/wordpress/check-in', installationKey, { site_key: siteKey }));
    expect(next.actions).toEqual([]);
  });

  test('a different result for a completed action is 409 action_completed and changes nothing; the same result again is a retry', async () => {
    const { site_key: siteKey } = await json(await register(installationKey));
    const first = await json(await call('POST', `/api/v1/sites/${siteKey}/actions`, installationKey, { type: 'ping' }));
    const second = await json(await call('POST', `/api/v1/sites/${siteKey}/actions`, installationKey, { type: 'ping' }));
    const report = (results: object[]) => call('POST', '/api/v1/wordpress/action-results', installationKey, { site_key: siteKey, results });
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
    expect(await collector.store.actions.get(first.id)).toMatchObject({ status: 'succeeded', message: 'pong', result: { ms: 3 } });
    expect((await collector.store.actions.get(second.id))!.status).toBe('pending');
  });

  test('a result for an unknown action, or another site\'s action, is 404 unknown_action and records nothing', async () => {
    const { site_key: siteKey } = await json(await register(installationKey));
    await call('POST', '/api/v1/wordpress/register', installationKey, { site_url: 'https://other-wp.example' });
    const { site_key: otherSite } = await json(await register(installationKey, { site_url: 'https://other-wp.example' }));
    const mine = await json(await call('POST', `/api/v1/sites/${siteKey}/actions`, installationKey, { type: 'ping' }));
    const theirs = await json(await call('POST', `/api/v1/sites/${otherSite}/actions`, installationKey, { type: 'ping' }));
    for (const actionId of [999_999, theirs.id]) {
      const response = await call('POST', '/api/v1/wordpress/action-results', installationKey, {
        site_key: siteKey,
        results: [
          { action_id: mine.id, status: 'succeeded' },
          { action_id: actionId, status: 'failed' },
        ],
      });
      expect(response.status).toBe(404);
      expect(await json(response)).toMatchObject({ error: { code: 'unknown_action' } });
    }
    expect((await collector.store.actions.get(mine.id))!.status).toBe('pending');
    expect((await collector.store.actions.get(theirs.id))!.status).toBe('pending');
  });

  test.each([
    ['register without a key', () => register(undefined), 401, 'unauthorized'],
    ['register with a wrong key', () => register('sbk_wrong'), 401, 'unauthorized'],
    ['register with no site_url', () => call('POST', '/api/v1/wordpress/register', installationKey, { site_name: 'x' }), 400, 'invalid_request'],
    ['register with an ftp site_url', () => register(installationKey, { site_url: 'ftp://wp.example' }), 400, 'invalid_request'],
    // Found by `npm run fuzz`: the protocol check parsed a string that was no URL (a 500).
    ['register with a site_url that is no URL', () => register(installationKey, { site_url: 'cq{W4' }), 400, 'invalid_request'],
    ['register with a NUL in site_name', () => register(installationKey, { site_name: 'Blog\u0000' }), 400, 'invalid_request'],
    ['register with a line break in plugin_version', () => register(installationKey, { plugin_version: '1.3.3\r\nX-Injected: 1' }), 400, 'invalid_request'],
    ['register with bad JSON', () => call('POST', '/api/v1/wordpress/register', installationKey, '{"site_url":'), 400, 'invalid_json'],
    ['check-in of a site that never registered', () => call('POST', '/api/v1/wordpress/check-in', shopKey, {}), 404, 'unknown_site'],
    ['check-in with an installation key and no site_key', () => call('POST', '/api/v1/wordpress/check-in', installationKey, {}), 400, 'invalid_request'],
    ['check-in for another site', () => call('POST', '/api/v1/wordpress/check-in', shopKey, { site_key: blog }), 403, 'forbidden'],
    ['action-results with an empty list', () => call('POST', '/api/v1/wordpress/action-results', shopKey, { results: [] }), 400, 'invalid_request'],
    ['an action with a bad type', () => call('POST', `/api/v1/sites/${shop}/actions`, shopKey, { type: 'Drop Tables' }), 400, 'invalid_request'],
    ['an action for another site', () => call('POST', `/api/v1/sites/${blog}/actions`, shopKey, { type: 'ping' }), 403, 'forbidden'],
    ['an action for an unknown site', () => call('POST', '/api/v1/sites/nope/actions', installationKey, { type: 'ping' }), 404, 'unknown_site'],
  ] as Array<[string, () => Promise<Response>, number, string]>)('%s', async (_name, request, status, code) => {
    const response = await request();
    expect(response.status).toBe(status);
    expect(await json(response)).toMatchObject({ error: { code } });
  });
});

describe('CSP projects', () => {
  const violation = (directive: string, blocked: string) => ({
    report_type: 'csp-violation',
    document_uri: 'https://shop.example/cart',
    effective_directive: directive,
    violated_directive: directive,
    blocked_uri: blocked,
  });

  test('create, list, read, update, suggest, header, delete', async () => {
    const created = await call('POST', '/api/v1/csp-projects', shopKey, { site_key: shop, name: 'Shop policy', base_policy: "default-src 'self'; img-src 'self'" });
    expect(created.status).toBe(201);
    const project = await json(created);
    expect(project).toMatchObject({ site_key: shop, name: 'Shop policy', mode: 'report-only' });

    expect((await json(await call('GET', '/api/v1/csp-projects', shopKey))).data).toHaveLength(1);
    expect((await json(await call('GET', '/api/v1/csp-projects', blogKey))).data).toHaveLength(0);
    expect(await json(await call('GET', `/api/v1/csp-projects/${project.id}`, installationKey))).toMatchObject({ id: project.id });

    await collector.insertCsp(
      shop,
      [violation('img-src', 'https://cdn.example.net/a.png'), violation('img-src', 'https://cdn.example.net/b.png'), violation('script-src-elem', 'https://ads.example.org/t.js')],
      Date.now(),
    );
    await collector.insertCsp(blog, [violation('img-src', 'https://blog-only.example/x.png')], Date.now());
    const suggestion = await json(await call('GET', `/api/v1/csp-projects/${project.id}/suggested-policy`, shopKey));
    expect(suggestion).toMatchObject({
      policy: "default-src 'self' https://ads.example.org; img-src 'self' https://cdn.example.net",
      based_on_reports: 3,
      directives: [
        { directive: 'img-src', added: [{ source: 'https://cdn.example.net', reports: 2 }] },
        { directive: 'default-src', added: [{ source: 'https://ads.example.org', reports: 1 }] },
      ],
    });

    const updated = await json(await call('PATCH', `/api/v1/csp-projects/${project.id}`, shopKey, { mode: 'enforce', base_policy: suggestion.policy }));
    expect(updated).toMatchObject({ mode: 'enforce', base_policy: suggestion.policy });
    const header = await json(await call('GET', `/api/v1/csp-projects/${project.id}/header`, shopKey));
    expect(header).toEqual({
      name: 'Content-Security-Policy',
      value: `${suggestion.policy}; report-uri https://in.example/api/csp-reports/${shop}; report-to sitebeacon`,
      reporting_endpoints: { name: 'Reporting-Endpoints', value: `sitebeacon="https://in.example/api/csp-reports/${shop}"` },
    });

    expect((await call('DELETE', `/api/v1/csp-projects/${project.id}`, shopKey)).status).toBe(204);
    expect((await call('GET', `/api/v1/csp-projects/${project.id}`, shopKey)).status).toBe(404);
  });

  test('one site\'s key never reads or changes another site\'s project', async () => {
    const project = await json(await call('POST', '/api/v1/csp-projects', blogKey, { site_key: blog, name: 'Blog', base_policy: "default-src 'self'" }));
    for (const [method, path, body] of [
      ['GET', `/api/v1/csp-projects/${project.id}`],
      ['PATCH', `/api/v1/csp-projects/${project.id}`, { name: 'mine now' }],
      ['DELETE', `/api/v1/csp-projects/${project.id}`],
      ['GET', `/api/v1/csp-projects/${project.id}/suggested-policy`],
      ['GET', `/api/v1/csp-projects/${project.id}/header`],
    ] as Array<[string, string, object?]>) {
      const response = await call(method, path, shopKey, body);
      expect(response.status, `${method} ${path}`).toBe(403);
    }
    expect((await call('POST', '/api/v1/csp-projects', shopKey, { site_key: blog, name: 'x', base_policy: "default-src 'self'" })).status).toBe(403);
    expect(await collector.store.cspProjects.get(project.id)).toMatchObject({ name: 'Blog' });
  });

  test.each([
    ['no key', () => call('GET', '/api/v1/csp-projects', undefined), 401, 'unauthorized'],
    ['an empty policy', () => call('POST', '/api/v1/csp-projects', shopKey, { site_key: shop, name: 'x', base_policy: ' ; ' }), 400, 'invalid_request'],
    ['a bad mode', () => call('POST', '/api/v1/csp-projects', shopKey, { site_key: shop, name: 'x', mode: 'strict', base_policy: "default-src 'self'" }), 400, 'invalid_request'],
    ['an unknown project', () => call('GET', '/api/v1/csp-projects/424242', shopKey), 404, 'unknown_project'],
    ['a project id that is not a number', () => call('GET', '/api/v1/csp-projects/abc/header', shopKey), 404, 'unknown_project'],
    ['an unknown site', () => call('POST', '/api/v1/csp-projects', installationKey, { site_key: 'nope', name: 'x', base_policy: "default-src 'self'" }), 404, 'unknown_site'],
  ] as Array<[string, () => Promise<Response>, number, string]>)('%s', async (_name, request, status, code) => {
    const response = await request();
    expect(response.status).toBe(status);
    expect(await json(response)).toMatchObject({ error: { code } });
  });
});

describe('server agents', () => {
  const registerAgent = async (key = installationKey) =>
    json(await call('POST', '/api/v1/server-agents/register', key, { hostname: 'web-1', os: 'debian-12', arch: 'amd64', agent_version: '1.0.0' }));

  test('register answers an id and a token; config and heartbeat take that token, and only for its own agent', async () => {
    const agent = await registerAgent();
    expect(agent).toMatchObject({ agent_id: expect.stringMatching(/^agt_[0-9a-f]{16}$/), agent_token: expect.stringMatching(/^sba_agt_/), heartbeat_interval: 300 });
    const config = await json(await call('GET', `/api/v1/server-agents/${agent.agent_id}/config`, agent.agent_token));
    expect(config).toMatchObject({ agent_id: agent.agent_id, app_url: 'http://127.0.0.1:8787', api_base: 'https://in.example/api', updates_enabled: true });
    expect(config.updates_url).toBe('http://127.0.0.1:8787/api/v1/server-agents/updates/latest');
    const beat = await call('POST', `/api/v1/server-agents/${agent.agent_id}/heartbeat`, agent.agent_token, { agent_version: '1.0.1', status: { load: 0.4 } });
    expect(await json(beat)).toEqual({ agent_id: agent.agent_id, next_heartbeat: 300 });
    expect(await collector.store.agents.get(agent.agent_id)).toMatchObject({ agent_version: '1.0.1', status: { load: 0.4 } });

    const other = await registerAgent();
    expect((await call('GET', `/api/v1/server-agents/${other.agent_id}/config`, agent.agent_token)).status).toBe(403);
    expect((await call('GET', `/api/v1/server-agents/${agent.agent_id}/config`, installationKey)).status).toBe(401);
    const forged = agent.agent_token.slice(0, -4) + 'AAAA';
    expect((await call('GET', `/api/v1/server-agents/${agent.agent_id}/config`, forged)).status).toBe(401);
  });

  test("DELETE /api/v1/server-agents/{id} with a key of the agent's site revokes it: its token is refused from the next request on (revocation)", async () => {
    const shopAgent = await registerAgent(shopKey);
    const installationAgent = await registerAgent();
    const config = (agent: Record<string, any>) => call('GET', `/api/v1/server-agents/${agent.agent_id}/config`, agent.agent_token);
    expect((await config(shopAgent)).status).toBe(200);
    // Without a key, with another site's key, or with a site key for an installation-wide agent: refused, nothing revoked.
    expect((await call('DELETE', `/api/v1/server-agents/${shopAgent.agent_id}`, undefined)).status).toBe(401);
    expect((await call('DELETE', `/api/v1/server-agents/${shopAgent.agent_id}`, shopAgent.agent_token)).status).toBe(401);
    expect((await call('DELETE', `/api/v1/server-agents/${shopAgent.agent_id}`, blogKey)).status).toBe(403);
    expect((await call('DELETE', `/api/v1/server-agents/${installationAgent.agent_id}`, shopKey)).status).toBe(403);
    expect((await config(shopAgent)).status).toBe(200);
    expect((await config(installationAgent)).status).toBe(200);

    expect((await call('DELETE', `/api/v1/server-agents/${shopAgent.agent_id}`, shopKey)).status).toBe(204);
    expect((await config(shopAgent)).status).toBe(401);
    expect((await call('POST', `/api/v1/server-agents/${shopAgent.agent_id}/heartbeat`, shopAgent.agent_token, {})).status).toBe(401);
    const again = await call('DELETE', `/api/v1/server-agents/${shopAgent.agent_id}`, shopKey);
    expect(again.status).toBe(404);
    expect(await json(again)).toMatchObject({ error: { code: 'unknown_agent' } });
    expect((await call('DELETE', `/api/v1/server-agents/${installationAgent.agent_id}`, installationKey)).status).toBe(204);
    expect((await config(installationAgent)).status).toBe(401);
  });

  test('the update manifest verifies with the published key, and fails for a changed file', async () => {
    writeFileSync(join(updatesDir, 'sitebeacon-agent-1.2.0-linux-amd64.tar.gz'), gzipSync('old build'));
    const newest = gzipSync('newest build');
    writeFileSync(join(updatesDir, 'sitebeacon-agent-1.10.0-linux-amd64.tar.gz'), newest);
    writeFileSync(join(updatesDir, 'notes.txt'), 'not an artifact');
    const agent = await registerAgent();
    const manifest = (await json(await call('GET', '/api/v1/server-agents/updates/latest', agent.agent_token))) as UpdateManifest;
    expect(manifest).toMatchObject({ version: '1.10.0', arch: 'amd64', file: 'sitebeacon-agent-1.10.0-linux-amd64.tar.gz', size: newest.length, algorithm: 'ed25519' });
    expect(manifest.url).toBe('http://127.0.0.1:8787/downloads/agents/sitebeacon-agent-1.10.0-linux-amd64.tar.gz');
    const published = await json(await call('GET', '/api/v1/server-agents/updates/public-key', undefined));
    expect(published.key_id).toBe(manifest.key_id);

    const download = await collector.request(new URL(manifest.url).pathname);
    expect(download.headers.get('content-length')).toBe(String(newest.length));
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(verifyManifest(manifest, published.public_key, bytes)).toBe(true);
    // A changed file, a changed manifest, or another key: refused.
    expect(verifyManifest(manifest, published.public_key, gzipSync('newest builD'))).toBe(false);
    expect(verifyManifest({ ...manifest, version: '9.9.9' }, published.public_key, bytes)).toBe(false);
    const stranger = createPublicKey(generateKeyPairSync('ed25519').privateKey).export({ type: 'spki', format: 'pem' }) as string;
    expect(verifyManifest(manifest, stranger, bytes)).toBe(false);
    // Only builds download: not other files of the folder, not paths outside it.
    expect((await collector.request('/downloads/agents/notes.txt')).status).toBe(404);
    expect((await collector.request('/downloads/agents/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    expect(readFileSync(join(updatesDir, 'notes.txt'), 'utf8')).toBe('not an artifact');

    // A build replaced in place is hashed again: the next manifest signs the new bytes.
    const rebuilt = gzipSync('newest build, rebuilt');
    writeFileSync(join(updatesDir, 'sitebeacon-agent-1.10.0-linux-amd64.tar.gz'), rebuilt);
    const next = (await json(await call('GET', '/api/v1/server-agents/updates/latest', agent.agent_token))) as UpdateManifest;
    expect(next.size).toBe(rebuilt.length);
    expect(verifyManifest(next, published.public_key, new Uint8Array(await (await collector.request(new URL(next.url).pathname)).arrayBuffer()))).toBe(true);
  });

  test('a manifest offers only a real build of the architecture asked, by the agents\' own names for it (agent builds)', async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.from('arm64 binary')]);
    writeFileSync(join(updatesDir, 'sitebeacon-agent-1.10.0-linux-amd64.tar.gz'), gzipSync('amd64'));
    writeFileSync(join(updatesDir, 'sitebeacon-agent-1.11.0-linux-arm64'), elf);
    writeFileSync(join(updatesDir, 'sitebeacon-agent-1.9.0-linux-arm64.tar.gz'), gzipSync('older arm64'));
    // Files that sit in the folder and look like builds, newer than any: never offered, never downloadable.
    writeFileSync(join(updatesDir, 'checksums.txt'), 'abc  sitebeacon-agent-1.10.0-linux-amd64.tar.gz');
    writeFileSync(join(updatesDir, 'sitebeacon-agent-9.9.9-checksums.txt'), 'abc');
    writeFileSync(join(updatesDir, 'sitebeacon-agent-9.9.9-linux-amd64.tar.gz'), 'not gzip at all');
    writeFileSync(join(updatesDir, 'sitebeacon-agent-9.9.9-linux-arm64'), '#!/bin/sh\nrm -rf /\n');
    writeFileSync(join(updatesDir, 'sitebeacon-agent-9.9.9-linux-amd64.tar.gz.sig'), 'signature');
    const manifestFor = async (arch: string) => {
      const agent = await json(await call('POST', '/api/v1/server-agents/register', installationKey, { hostname: 'h', os: 'linux', arch, agent_version: '1.0.0' }));
      return json(await call('GET', '/api/v1/server-agents/updates/latest', agent.agent_token));
    };
    expect(await manifestFor('x86_64')).toMatchObject({ arch: 'amd64', version: '1.10.0', file: 'sitebeacon-agent-1.10.0-linux-amd64.tar.gz' });
    expect(await manifestFor('amd64')).toMatchObject({ arch: 'amd64', version: '1.10.0' });
    expect(await manifestFor('aarch64')).toMatchObject({ arch: 'arm64', version: '1.11.0', file: 'sitebeacon-agent-1.11.0-linux-arm64' });
    // An operator's script names the architecture; an agent may name another than its own.
    expect(await json(await call('GET', '/api/v1/server-agents/updates/latest?arch=arm64', installationKey))).toMatchObject({ arch: 'arm64', version: '1.11.0' });
    const missing = await call('GET', '/api/v1/server-agents/updates/latest', installationKey);
    expect(missing.status).toBe(400);
    for (const arch of ['riscv64', 'constructor', 'armv7l']) {
      const response = await call('GET', `/api/v1/server-agents/updates/latest?arch=${arch}`, installationKey);
      expect(response.status, arch).toBe(404);
    }
    for (const file of ['checksums.txt', 'sitebeacon-agent-9.9.9-checksums.txt', 'sitebeacon-agent-9.9.9-linux-amd64.tar.gz', 'sitebeacon-agent-9.9.9-linux-arm64', 'sitebeacon-agent-9.9.9-linux-amd64.tar.gz.sig']) {
      for (const method of ['GET', 'HEAD']) expect((await collector.request(`/downloads/agents/${file}`, { method })).status, `${method} ${file}`).toBe(404);
    }
    const head = await collector.request('/downloads/agents/sitebeacon-agent-1.11.0-linux-arm64', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(elf.length));
    expect(await head.text()).toBe('');
  });

  test.each([
    ['register without a key', () => call('POST', '/api/v1/server-agents/register', undefined, { hostname: 'h', os: 'o', arch: 'a', agent_version: '1' }), 401, 'unauthorized'],
    ['register with a control character in the hostname', () => call('POST', '/api/v1/server-agents/register', installationKey, { hostname: 'web\u001b[2J', os: 'o', arch: 'a', agent_version: '1' }), 400, 'invalid_request'],
    ['register without a hostname', () => call('POST', '/api/v1/server-agents/register', installationKey, { os: 'o', arch: 'a', agent_version: '1' }), 400, 'invalid_request'],
    ['register for an unknown site', () => call('POST', '/api/v1/server-agents/register', installationKey, { hostname: 'h', os: 'o', arch: 'a', agent_version: '1', site_key: 'nope' }), 404, 'unknown_site'],
    ['register for another site', () => call('POST', '/api/v1/server-agents/register', shopKey, { hostname: 'h', os: 'o', arch: 'a', agent_version: '1', site_key: blog }), 403, 'forbidden'],
    ['config without a token', () => call('GET', '/api/v1/server-agents/agt_0000000000000000/config', undefined), 401, 'unauthorized'],
    ['updates with no build published', () => call('GET', '/api/v1/server-agents/updates/latest?arch=x86_64', installationKey), 404, 'not_found'],
    ['updates asked with an API key and no architecture', () => call('GET', '/api/v1/server-agents/updates/latest', installationKey), 400, 'invalid_request'],
    ['updates without a key', () => call('GET', '/api/v1/server-agents/updates/latest', undefined), 401, 'unauthorized'],
  ] as Array<[string, () => Promise<Response>, number, string]>)('%s', async (_name, request, status, code) => {
    const response = await request();
    expect(response.status).toBe(status);
    expect(await json(response)).toMatchObject({ error: { code } });
  });
});
