import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { seedStore } from '../testing/seed';
import type { Store } from './contract';
import { withSiteCache } from './siteCache';
import { createSqliteStore } from './sqlite';
import { UnknownSiteError } from './unknownSiteError';

// The site cache over a real store (an SQLite file opened twice: this collector, and another
// process such as the CLI). openStore() puts it in front of PostgreSQL; it works over any store.
let dir: string;
let stores: Store[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-site-cache-'));
  stores = [];
});
afterEach(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});
const open = () => {
  const store = createSqliteStore({ file: join(dir, 'sitebeacon.db') });
  stores.push(store);
  return store;
};

test('a report write under a cached key that another process rotated forgets that key at once, and only it', async () => {
  const cached = withSiteCache(open(), { ttlMs: 60_000 });
  const other = open();
  const seed = seedStore(cached);
  const blog = await seedStore(other).addSite(['https://blog.example'], 'Blog');
  expect(await cached.sites.get(blog)).toMatchObject({ name: 'Blog' });
  await other.sites.put({ site_key: blog, name: 'Blog renamed', allowed_origins: [] });
  const writes = {
    errors: (siteKey: string) => seed.insertErrors(siteKey, [{ error_type: 'js', error_message: 'x' }]),
    csp: (siteKey: string) => seed.insertCsp(siteKey, [{ report_type: 'csp-violation', effective_directive: 'img-src', blocked_uri: 'https://cdn.example/x.png' }]),
    performance: (siteKey: string) => seed.upsertSession(siteKey, { session_id: 's', metrics: { LCP: { value: 1 } } }),
  };
  for (const [kind, write] of Object.entries(writes)) {
    const shop = await seedStore(other).addSite(['https://shop.example'], kind);
    expect(await cached.sites.get(shop)).toMatchObject({ name: kind });
    await other.sites.rotateKey(shop, `${kind}rotated`);
    // Within its time the cache still has the old key (what a PostgreSQL collector sees for up to 5 s) ...
    expect(await cached.sites.get(shop)).toMatchObject({ name: kind });
    // ... until a write under it is refused: then the next lookup asks the store.
    await expect(write(shop)).rejects.toBeInstanceOf(UnknownSiteError);
    expect(await cached.sites.get(shop)).toBeUndefined();
    expect(await cached.sites.get(`${kind}rotated`)).toMatchObject({ name: kind });
    await write(`${kind}rotated`);
  }
  // Other entries stay cached.
  expect(await cached.sites.get(blog)).toMatchObject({ name: 'Blog' });
});

test('so does a management write (an install, an action, a CSP project, an agent, an API key): any part of the store', async () => {
  const cached = withSiteCache(open(), { ttlMs: 60_000 });
  const other = open();
  const writes = {
    wordpress: (siteKey: string) => cached.wordpress.put({ site_key: siteKey, site_url: `https://${siteKey}.example`, name: 'WordPress' }),
    actions: (siteKey: string) => cached.actions.add(siteKey, { type: 'clear_cache' }),
    cspProjects: (siteKey: string) => cached.cspProjects.create({ site_key: siteKey, name: 'Main', mode: 'report-only', base_policy: "default-src 'self'" }),
    agents: (siteKey: string) =>
      cached.agents.add({ id: `agt_${siteKey}`, token_hash: siteKey, hostname: 'web1', os: 'linux', arch: 'amd64', agent_version: '1', site_key: siteKey }),
    apiKeys: (siteKey: string) => cached.apiKeys.create({ key_hash: siteKey, name: 'key', site_key: siteKey }),
  };
  for (const [kind, write] of Object.entries(writes)) {
    const shop = await seedStore(other).addSite(['https://shop.example'], kind);
    expect(await cached.sites.get(shop)).toMatchObject({ name: kind });
    await other.sites.rotateKey(shop, `${kind}rotated`);
    expect(await cached.sites.get(shop)).toMatchObject({ name: kind });
    await expect(write(shop)).rejects.toBeInstanceOf(UnknownSiteError);
    expect(await cached.sites.get(shop), kind).toBeUndefined();
    await write(`${kind}rotated`);
  }
  // Reads and the other parts still answer through the cache's store.
  expect(await cached.actions.pending('actionsrotated')).toMatchObject([{ type: 'clear_cache' }]);
  expect(await cached.agents.list('agentsrotated')).toMatchObject([{ id: 'agt_agentsrotated' }]);
  await cached.checkWritable();
});
