// Management writes on PostgreSQL with two collectors (docs/scale-out.md): a write under a site key another
// process has just rotated (`site rotate-key`) is answered 404 unknown_site, as a report under it is
// (scaleOutDashboard.test.ts), by a collector that still has the site cached (the WordPress plugin's
// actions, a server agent's registration, a CSP project) and by one whose lookup raced the rotation
// (the WordPress plugin registering again), storing nothing; the new key works at both. The
// rotation is made by this test's own store on the same database: another process to the
// collectors, as the CLI is. Needs `npm run build`.
import pg from 'pg';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { hashApiKey, newApiKey } from './core/keys';
import type { Store } from './store/contract';
import { openStore } from './store/openStore';
import { spawnCollector, type CollectorProcess } from './testing/spawnCollector';
import { usePostgresDatabase, type TestDatabase } from './testing/testDatabase';
import { until as untilHolds } from './testing/until';

const database = usePostgresDatabase('scale_out_management');
let schema: TestDatabase;
let store: Store;
let running: CollectorProcess[] = [];
beforeEach(async () => {
  schema = await database.schema('management');
  store = await openStore(schema.url);
});
afterEach(async () => {
  await Promise.all(running.map((collector) => collector.stop()));
  running = [];
  await store.close();
  await schema.drop();
});
const start = async () => {
  const collector = await spawnCollector({ db: schema.url, args: ['--rate-limit', '0', '--site-rate-limit', '0'] });
  running.push(collector);
  return collector;
};
const SHOP = 'https://shop.example';
const apiKey = async (siteKey?: string) => {
  const key = newApiKey();
  await store.apiKeys.create({ key_hash: hashApiKey(key), name: 'test', site_key: siteKey });
  return key;
};
const post = async (collector: CollectorProcess, path: string, key: string, body: unknown) => {
  const response = await fetch(`${collector.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};
const unknownSite = (siteKey: string) => ({ status: 404, body: { error: { code: 'unknown_site', message: `no site has the key "${siteKey}"` } } });

test('collectors that still have the site cached answer an action, an agent registration and a CSP project under the key just rotated 404 unknown_site, storing nothing', async () => {
  const collectors = await Promise.all([start(), start()]);
  const key = await apiKey();
  const writes = {
    // The WordPress plugin's actions (spec section 4, routes/wordpress.ts).
    action: (siteKey: string) => ({ path: `/api/v1/sites/${siteKey}/actions`, body: { type: 'clear_cache' } }),
    agent: (siteKey: string) => ({ path: '/api/v1/server-agents/register', body: { hostname: 'web1', os: 'linux', arch: 'amd64', agent_version: '1.0.0', site_key: siteKey } }),
    project: (siteKey: string) => ({ path: '/api/v1/csp-projects', body: { site_key: siteKey, name: 'Main', base_policy: "default-src 'self'" } }),
  };
  // A site per write and collector: the first refusal makes a collector forget the key, so each
  // write here is the first under its key at its collector and reaches the store.
  const cases = collectors.flatMap((collector, index) =>
    Object.entries(writes).map(([kind, write]) => ({ collector, kind, write, site: `${kind}${index}`, rotated: `${kind}${index}new` })),
  );
  for (const { site } of cases) await store.sites.create({ site_key: site, name: site, allowed_origins: [SHOP] });
  // Each collector looks its sites up and keeps them for 5 s (store/siteCache.ts).
  const cachedAt = Date.now();
  for (const { collector, site } of cases) {
    const read = await fetch(`${collector.url}/api/v1/sites/${site}/error-reports`, { headers: { authorization: `Bearer ${key}` } });
    expect(read.status).toBe(200);
  }
  for (const { site, rotated } of cases) expect(await store.sites.rotateKey(site, rotated)).toMatchObject({ site_key: rotated });

  for (const { collector, kind, write, site } of cases) {
    const { path, body } = write(site);
    expect({ kind, ...(await post(collector, path, key, body)) }).toEqual({ kind, ...unknownSite(site) });
  }
  // What makes this test mean anything: those writes came while the sites were cached.
  expect(Date.now() - cachedAt, 'rotating took longer than the site cache keeps a site').toBeLessThan(5_000);
  for (const { collector, write, site, rotated } of cases) {
    // Asked again, the collector looks the old key up: unknown, as any unknown key.
    const { path, body } = write(site);
    expect(await post(collector, path, key, body)).toEqual(unknownSite(site));
    const renewed = write(rotated);
    expect((await post(collector, renewed.path, key, renewed.body)).status).toBe(201);
  }

  for (const { kind, site, rotated } of cases) {
    expect(await store.actions.pending(site)).toEqual([]);
    expect(await store.agents.list(site)).toEqual([]);
    expect(await store.cspProjects.list(site)).toEqual([]);
    if (kind == 'action') expect(await store.actions.pending(rotated)).toMatchObject([{ type: 'clear_cache' }]);
    if (kind == 'agent') expect(await store.agents.list(rotated)).toMatchObject([{ hostname: 'web1' }]);
    if (kind == 'project') expect(await store.cspProjects.list(rotated)).toMatchObject([{ name: 'Main' }]);
  }
  for (const collector of collectors) expect(collector.stderr()).not.toMatch(/"status":500|foreign key|internal error/);
}, 60_000);

test('the WordPress plugin registering while its site is being rotated elsewhere is answered 404 unknown_site, then registers under the new key', async () => {
  const [one, two] = await Promise.all([start(), start()]);
  await store.sites.create({ site_key: 'shopkey', name: 'Shop', allowed_origins: [SHOP] });
  // The plugin's key is the site's: the rotation moves it to the new key.
  const key = await apiKey('shopkey');
  const register = (collector: CollectorProcess) => post(collector, '/api/v1/wordpress/register', key, { site_url: SHOP, plugin_version: '1.2.0' });

  // The rotation is held after it has locked the site's row (sites.ts `rotate`: FOR UPDATE first,
  // then each table that files rows by site, in name order), at a table lock taken here.
  const holder = new pg.Client({ connectionString: schema.url });
  await holder.connect();
  // Who waits for what, from the lock table (pg_stat_activity's query text is the previous
  // statement's while a prepared statement waits at its Parse): `relation` is the rotation waiting
  // for the table lock held here, `transactionid` a row lock's wait for the transaction holding it.
  const someoneWaits = async (lock: 'relation' | 'transactionid') => {
    const { rows } = await holder.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_locks l JOIN pg_stat_activity a USING (pid)
       WHERE NOT l.granted AND a.datname = current_database() AND l.locktype = $1`,
      [lock],
    );
    return rows[0]!.waiting > 0;
  };
  const until = (lock: 'relation' | 'transactionid') => untilHolds(() => someoneWaits(lock), { what: `something waiting for a ${lock} lock`, ms: 10_000, everyMs: 20 });
  try {
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE csp_projects IN SHARE MODE');
    const rotating = store.sites.rotateKey('shopkey', 'rotatedshop');
    await until('relation');
    expect(await someoneWaits('transactionid')).toBe(false);
    // The collector finds the key's site (the rotation has not committed) and writes the install
    // under it: its foreign key waits for the site's row, which the rotation holds.
    const registering = register(one);
    await until('transactionid');
    await holder.query('ROLLBACK');
    expect(await rotating).toMatchObject({ site_key: 'rotatedshop' });
    expect(await registering).toEqual(unknownSite('shopkey'));
  } finally {
    await holder.end();
  }
  expect(await store.wordpress.findByUrl(SHOP)).toBeUndefined();
  // Registered anew (201, nothing was stored before), under the key's site's new key, at either collector.
  expect(await register(two)).toMatchObject({ status: 201, body: { site_key: 'rotatedshop', site_url: SHOP } });
  expect(await register(one)).toMatchObject({ status: 200, body: { site_key: 'rotatedshop' } });
  expect(await store.wordpress.get('rotatedshop')).toMatchObject({ site_url: SHOP, plugin_version: '1.2.0' });
  for (const collector of [one, two]) expect(collector.stderr()).not.toMatch(/"status":500|foreign key|internal error/);
}, 60_000);
