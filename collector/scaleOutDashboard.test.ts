// The dashboard and the CLI's commands on PostgreSQL with two collectors (docs/scale-out.md,
// docs/dashboard.md): a user added by the CLI signs in at one collector and reads every dashboard view at the
// other, one CSP violation sent to both (the beacon's copy and the browser's report) is counted
// once, and revocations made by the CLI hold at the other collector; a report under a key the CLI has
// just rotated is answered 404 by a collector that still has the site cached. Needs `npm run build`.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { runCli, spawnCollector, type CollectorProcess } from './testing/spawnCollector';
import { DEVICE_USER_AGENTS } from './testing/storeContract/vitalsByDevice.contract';
import { usePostgresDatabase, type TestDatabase } from './testing/testDatabase';

const database = usePostgresDatabase('scale_out_dashboard');
let schema: TestDatabase;
let running: CollectorProcess[] = [];
beforeEach(async () => {
  schema = await database.schema('dashboard');
});
afterEach(async () => {
  await Promise.all(running.map((collector) => collector.stop()));
  running = [];
  await schema.drop();
});
const start = async () => {
  const collector = await spawnCollector({ db: schema.url, args: ['--rate-limit', '0', '--site-rate-limit', '0'] });
  running.push(collector);
  return collector;
};
const cli = (...args: string[]) => JSON.parse(runCli(schema.url, ...args, '--json')) as Record<string, any>;
const SHOP = 'https://shop.example';
/** Sent as a desktop browser's beacon: Node's own user agent is a bot's, left out of the counts (docs/issues.md, "Bots"). */
const BROWSER = DEVICE_USER_AGENTS.desktop.userAgent;

test('a user added by the CLI signs in at one collector and reads every dashboard view at the other', async () => {
  const [one, two] = await Promise.all([start(), start()]);
  const site = cli('site', 'add', '--origin', SHOP, '--name', 'Shop').site_key as string;
  const { password } = cli('user', 'add', '--email', 'ann@shop.example', '--site', site);
  const send = (collector: CollectorProcess, kind: string, body: unknown, type = 'application/json') =>
    fetch(`${collector.url}/api/${kind}/${site}`, { method: 'POST', headers: { 'content-type': type, origin: SHOP, 'user-agent': BROWSER }, body: JSON.stringify(body) });
  const error = (session: string, page: string) => ({ error_type: 'javascript_error', error_message: 'cart is empty', session_id: session, page_url: page });
  expect((await send(one, 'error-reports', [error('s1', `${SHOP}/cart`), error('s2', `${SHOP}/cart`)])).status).toBe(202);
  expect((await send(two, 'error-reports', error('s1', `${SHOP}/pay`))).status).toBe(202);
  // One violation: the beacon's copy at one collector, the browser's own report at the other.
  const violation = { 'csp-report': { 'document-uri': `${SHOP}/`, 'effective-directive': 'img-src', 'blocked-uri': 'https://cdn.example/x.png', 'line-number': 4 } };
  expect((await send(one, 'csp-reports', violation)).status).toBe(202);
  expect((await send(two, 'csp-reports', violation, 'application/csp-report')).status).toBe(202);
  for (const [i, value] of [1200, 2600, 900].entries()) {
    const collector = i % 2 ? one : two;
    expect((await send(collector, 'performance-sessions', { session_id: `p${i}`, page_url: `${SHOP}/cart`, metrics: { LCP: { value } } })).status).toBe(202);
  }

  const signIn = await fetch(`${one.url}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: one.url },
    body: JSON.stringify({ email: 'ann@shop.example', password }),
  });
  expect(signIn.status).toBe(204);
  const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
  const get = async (path: string) => {
    const response = await fetch(`${two.url}${path}`, { headers: { cookie } });
    return { status: response.status, body: (await response.json()) as any };
  };
  expect((await get('/api/v1/session')).body).toEqual({ email: 'ann@shop.example', site_keys: [site] });
  expect((await get('/api/v1/sites')).body.data.map((each: any) => each.site_key)).toEqual([site]);
  const today = (await get(`/api/v1/sites/${site}/daily`)).body.days.at(-1);
  expect(today).toMatchObject({ errors: 3, error_occurrences: 3, csp: 1, page_views: 3, p75: { LCP: 2600 } });
  const groups = (await get(`/api/v1/sites/${site}/error-groups`)).body.data;
  expect(groups).toMatchObject([{ error_message: 'cart is empty', reports: 3, sessions: 2 }]);
  const detail = (await get(`/api/v1/sites/${site}/error-groups/${groups[0].fingerprint}`)).body;
  expect(detail.pages).toEqual([{ page_url: `${SHOP}/cart`, reports: 2 }, { page_url: `${SHOP}/pay`, reports: 1 }]);
  expect(detail.latest).toMatchObject({ page_url: `${SHOP}/pay` });
  expect((await get(`/api/v1/sites/${site}/pages`)).body.data).toMatchObject([{ page_url: `${SHOP}/cart`, sessions: 3, metrics: { LCP: { samples: 3, p75: 2600 } } }]);
  const csp = (await get(`/api/v1/sites/${site}/csp-reports`)).body.data;
  expect(csp).toMatchObject([{ blocked_uri: 'https://cdn.example/x.png', sources: ['beacon', 'report-uri'] }]);
  expect((await get(`/api/v1/sites/${site}/summary`)).body.csp).toMatchObject([{ directive: 'img-src', blocked_host: 'cdn.example', disposition: 'report', reports: 1 }]);
  const page = await fetch(`${two.url}/sites/${site}`, { headers: { cookie } });
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  // Signed out at the second collector: the session is gone at the first as well.
  expect((await fetch(`${two.url}/api/v1/session`, { method: 'DELETE', headers: { cookie, origin: two.url } })).status).toBe(204);
  expect((await fetch(`${one.url}/api/v1/sites`, { headers: { cookie } })).status).toBe(401);
}, 60_000);

test("the CLI's revocations hold at every collector: an API key and an agent at once, a rotated site key within 5 seconds", async () => {
  const [one, two] = await Promise.all([start(), start()]);
  const site = cli('site', 'add', '--origin', SHOP).site_key as string;
  const key = cli('key', 'create').api_key as string;
  const read = (collector: CollectorProcess, siteKey: string, bearer = key) =>
    fetch(`${collector.url}/api/v1/sites/${siteKey}/error-reports`, { headers: { authorization: `Bearer ${bearer}` } });
  expect((await read(two, site)).status).toBe(200);

  const rotated = cli('site', 'rotate-key', '--site', site);
  expect(rotated).toMatchObject({ previous_site_key: site });
  // The new key works at once everywhere (unknown keys are never cached) ...
  expect((await read(two, rotated.site_key)).status).toBe(200);
  // ... and the old one is unknown at the other collector once its site cache expires (5 s).
  const deadline = Date.now() + 7_000;
  let status = 0;
  while (Date.now() < deadline && (status = (await read(two, site)).status) != 404) await new Promise((resolve) => setTimeout(resolve, 250));
  expect(status).toBe(404);

  const registered = await fetch(`${one.url}/api/v1/server-agents/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ hostname: 'web1', os: 'linux', arch: 'amd64', agent_version: '1.0.0', site_key: rotated.site_key }),
  });
  expect(registered.status).toBe(201);
  const agent = (await registered.json()) as { agent_id: string; agent_token: string };
  const heartbeat = (collector: CollectorProcess) =>
    fetch(`${collector.url}/api/v1/server-agents/${agent.agent_id}/heartbeat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${agent.agent_token}` },
      body: JSON.stringify({ agent_version: '1.0.1' }),
    });
  expect((await heartbeat(two)).status).toBeLessThan(300);
  runCli(schema.url, 'agent', 'revoke', agent.agent_id);
  expect((await heartbeat(two)).status).toBe(401);

  runCli(schema.url, 'key', 'revoke', key);
  expect((await read(one, rotated.site_key)).status).toBe(401);
  expect((await read(two, rotated.site_key)).status).toBe(401);
}, 60_000);

test('a collector that still has the site cached answers a report under the key the CLI just rotated 404 unknown_site, storing nothing; the new key works there', async () => {
  const collector = await start();
  const site = cli('site', 'add', '--origin', SHOP).site_key as string;
  const key = cli('key', 'create').api_key as string;
  const send = (siteKey: string, kind: string, body: unknown) =>
    fetch(`${collector.url}/api/${kind}/${siteKey}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: SHOP }, body: JSON.stringify(body) });
  const error = (message: string) => ({ error_type: 'javascript_error', error_message: message });
  const reports = {
    'error-reports': error('after rotation'),
    'csp-reports': { 'csp-report': { 'document-uri': `${SHOP}/`, 'effective-directive': 'img-src', 'blocked-uri': 'https://cdn.example/x.png' } },
    'performance-sessions': { session_id: 's1', metrics: { LCP: { value: 1200 } } },
  };
  // The collector looks the site up and keeps it for 5 s (store/siteCache.ts).
  const cachedAt = Date.now();
  expect((await send(site, 'error-reports', error('before rotation'))).status).toBe(202);
  const rotated = cli('site', 'rotate-key', '--site', site);
  expect(rotated).toMatchObject({ previous_site_key: site });
  for (const [kind, body] of Object.entries(reports)) {
    const response = await send(site, kind, body);
    expect({ kind, status: response.status, body: await response.json() }).toEqual({
      kind,
      status: 404,
      body: { error: { code: 'unknown_site', message: `no site has the key "${site}"` } },
    });
  }
  // What makes this test mean anything: the first of those reports came while the site was cached.
  expect(Date.now() - cachedAt, 'the CLI took longer than the site cache keeps a site').toBeLessThan(5_000);
  for (const [kind, body] of Object.entries(reports)) expect((await send(rotated.site_key, kind, body)).status).toBe(202);
  const read = async (kind: string) => {
    const response = await fetch(`${collector.url}/api/v1/sites/${rotated.site_key}/${kind}`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: Array<Record<string, unknown>> }).data;
  };
  expect((await read('error-reports')).map((report) => report.error_message)).toEqual(['before rotation', 'after rotation']);
  expect(await read('csp-reports')).toHaveLength(1);
  expect(await read('performance-sessions')).toMatchObject([{ session_id: 's1', metrics: { LCP: { value: 1200 } } }]);
  expect(collector.stderr()).not.toMatch(/"status":500|foreign key/);
}, 60_000);
