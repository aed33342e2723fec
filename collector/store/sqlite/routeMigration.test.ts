import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { createSqliteStore } from '../sqlite';
import { migrate, SQLITE_SCHEMA_VERSION } from './migrations';

// The routes' schema version (docs/vitals.md, "Routes"; sqlite/routeSchema.ts) is the last one.
const ROUTES_VERSION = SQLITE_SCHEMA_VERSION;
const now = Date.UTC(2026, 5, 10, 12);
let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

test('sessions stored before routes keep a null route and are grouped by their page URL, as before; new ones by route, with patterns kept per site', async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-routes-'));
  const file = join(dir, 'old.db');
  const db = new Database(file);
  migrate(db, ROUTES_VERSION - 1);
  db.prepare(`INSERT INTO sites (site_key, name, allowed_origins, created_at) VALUES ('shop', 'Shop', '[]', 0)`).run();
  const session = db.prepare(
    `INSERT INTO performance_sessions (site_key, session_id, received_at, updated_at, page_url, metrics) VALUES ('shop', ?, ?, ?, ?, '{}')`,
  );
  const metric = db.prepare(`INSERT INTO performance_metrics (session_row, site_key, name, value, updated_at) VALUES (?, 'shop', 'LCP', ?, ?)`);
  for (const [id, url, value] of [['o1', 'https://shop.example/products/1', 1000], ['o2', 'https://shop.example/products/1', 3000]] as const) {
    metric.run(session.run(id, now, now, url).lastInsertRowid, value, now);
  }
  db.close();

  const store = createSqliteStore({ file });
  try {
    await store.performance.upsert('shop', { session_id: 'n1', page_url: 'https://shop.example/products/2', metrics: { LCP: { value: 2000 } } }, { received_at: now });
    expect((await store.performance.pages('shop', { limit: 10 })).map(({ route, sessions }) => [route, sessions])).toEqual([
      ['https://shop.example/products/1', 2],
      ['/products/:id', 1],
    ]);
    expect(await store.performance.metricCountsWithDays('shop', { name: 'LCP', thresholds: [2500, 4000], route: 'https://shop.example/products/1' })).toMatchObject({ samples: 2 });
    expect(await store.routes.add('shop', '/blog/:slug', 50)).toBe('added');
  } finally {
    await store.close();
  }
  const reopened = new Database(file, { readonly: true });
  expect(reopened.prepare('SELECT session_id, route FROM performance_sessions ORDER BY session_id').all()).toEqual([
    { session_id: 'n1', route: '/products/:id' },
    { session_id: 'o1', route: null },
    { session_id: 'o2', route: null },
  ]);
  reopened.close();
});
