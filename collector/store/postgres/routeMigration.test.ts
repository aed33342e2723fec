import { afterEach, beforeEach, expect, test } from 'vitest';
import { usePostgresDatabase, type TestDatabase } from '../../testing/testDatabase';
import { createPostgresStore } from '../postgres';
import { migratePostgres } from './migrations';
import { createPool } from './pool';
import { POSTGRES_MIGRATIONS } from './schema';

// The routes' schema version (docs/vitals.md, "Routes"; postgres/routeSchema.ts) is the last one.
const ROUTES_VERSION = POSTGRES_MIGRATIONS.length;
const now = Date.UTC(2026, 5, 10, 12);
const database = usePostgresDatabase('route_migration');
let schema: TestDatabase;
let pool: ReturnType<typeof createPool>;
beforeEach(async () => {
  schema = await database.schema('routes');
  pool = createPool(schema.url);
});
afterEach(async () => {
  await pool.end();
  await schema.drop();
});

test('sessions stored before routes keep a null route and are grouped by their page URL, as before; new ones by route', async () => {
  await migratePostgres(pool, ROUTES_VERSION - 1);
  await pool.query(`INSERT INTO sites (site_key, name, allowed_origins, created_at) VALUES ('shop', 'Shop', '[]', 0)`);
  for (const [id, value] of [['o1', 1000], ['o2', 3000]] as const) {
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO performance_sessions (site_key, session_id, received_at, updated_at, page_url, metrics) VALUES ('shop', $1, $2, $2, 'https://shop.example/products/1', '{}') RETURNING id`,
      [id, now],
    );
    await pool.query(`INSERT INTO performance_metrics (session_row, site_key, name, value, updated_at) VALUES ($1, 'shop', 'LCP', $2, $3)`, [rows[0]!.id, value, now]);
  }
  const store = await createPostgresStore({ url: schema.url });
  try {
    await store.performance.upsert('shop', { session_id: 'n1', page_url: 'https://shop.example/products/2', metrics: { LCP: { value: 2000 } } }, { received_at: now });
    expect((await store.performance.pages('shop', { limit: 10 })).map(({ route, sessions }) => [route, sessions])).toEqual([
      ['https://shop.example/products/1', 2],
      ['/products/:id', 1],
    ]);
    expect(await store.performance.metricCountsWithDays('shop', { name: 'LCP', thresholds: [2500, 4000], route: 'https://shop.example/products/1' })).toMatchObject({ samples: 2 });
  } finally {
    await store.close();
  }
  const { rows } = await pool.query('SELECT session_id, route FROM performance_sessions ORDER BY session_id');
  expect(rows).toEqual([{ session_id: 'n1', route: '/products/:id' }, { session_id: 'o1', route: null }, { session_id: 'o2', route: null }]);
});
