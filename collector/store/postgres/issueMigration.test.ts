import { afterEach, beforeEach, expect, test } from 'vitest';
import { usePostgresDatabase, type TestDatabase } from '../../testing/testDatabase';
import { migratePostgres } from './migrations';
import { createPool } from './pool';

const DAY = 86_400_000;
const database = usePostgresDatabase('issue_migration');
let schema: TestDatabase;
let pool: ReturnType<typeof createPool>;
beforeEach(async () => {
  schema = await database.schema('issues');
  pool = createPool(schema.url);
});
afterEach(async () => {
  await pool.end();
  await schema.drop();
});

test("schema version 8 fills issues from the per-day aggregates: all-time seen times, the latest day's texts, unresolved; old reports keep null clients", async () => {
  await migratePostgres(pool, 7);
  await pool.query(`INSERT INTO sites (site_key, name, allowed_origins, created_at) VALUES ('shop', 'Shop', '[]', 0)`);
  const group = 'INSERT INTO error_groups (site_key, fingerprint, day, reports, count, first_seen, last_seen, error_type, error_name, error_message) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)';
  await pool.query(group, ['shop', 'aaaa', 10, 2, 3, 10 * DAY + 5, 10 * DAY + 9, 'javascript_error', null, 'old message']);
  await pool.query(group, ['shop', 'aaaa', 12, 1, 1, 12 * DAY + 1, 12 * DAY + 2, 'javascript_error', 'TypeError', 'new message']);
  await pool.query(group, ['shop', 'bbbb', 11, 1, 1, 11 * DAY, 11 * DAY, 'resource_error', null, 'img failed']);
  await pool.query(`INSERT INTO error_reports (site_key, received_at, error_type, error_message, fingerprint, user_agent) VALUES ('shop', 1, 'x', 'y', 'aaaa', 'Mozilla/5.0')`);

  await migratePostgres(pool, 8);
  const { rows } = await pool.query('SELECT * FROM issues ORDER BY fingerprint');
  expect(rows).toEqual([
    {
      site_key: 'shop', fingerprint: 'aaaa', error_type: 'javascript_error', error_name: 'TypeError', error_message: 'new message',
      first_seen: 10 * DAY + 5, last_seen: 12 * DAY + 2, first_release: null, last_release: null, status: 'unresolved', regressed: 0,
      resolved_in: null, ignore_until_count: null, ignored_occurrences: 0, ignore_until: null,
    },
    expect.objectContaining({ fingerprint: 'bbbb', error_message: 'img failed', first_seen: 11 * DAY, last_seen: 11 * DAY }),
  ]);
  const { rows: reports } = await pool.query('SELECT browser, os, device, bot, release, environment FROM error_reports');
  expect(reports).toEqual([{ browser: null, os: null, device: null, bot: null, release: null, environment: null }]);
});
