import { afterEach, beforeEach, expect, test } from 'vitest';
import { CSP_REPORT_COLUMNS, cspReportValues, EXPECTED_CSP_GROUPS } from '../../testing/cspGroupReports';
import { usePostgresDatabase, type TestDatabase } from '../../testing/testDatabase';
import { migratePostgres } from './migrations';
import { createPool } from './pool';

const database = usePostgresDatabase('csp_group_migration');
let schema: TestDatabase;
let pool: ReturnType<typeof createPool>;
beforeEach(async () => {
  schema = await database.schema('csp_groups');
  pool = createPool(schema.url);
});
afterEach(async () => {
  await pool.end();
  await schema.drop();
});

test('schema version 14 counts csp_groups per disposition, rebuilt from the stored reports', async () => {
  await migratePostgres(pool, 13);
  await pool.query(`INSERT INTO sites (site_key, name, allowed_origins, created_at) VALUES ('shop', 'Shop', '[]', 0)`);
  await pool.query(`INSERT INTO csp_groups (site_key, directive, blocked_host, day, reports) VALUES ('shop', 'img-src', 'ads.example', 0, 4)`);
  for (const values of cspReportValues()) {
    const placeholders = CSP_REPORT_COLUMNS.map((_, index) => `$${index + 1}`).join(', ');
    await pool.query(`INSERT INTO csp_reports (${CSP_REPORT_COLUMNS.join(', ')}, document_uri) VALUES (${placeholders}, 'https://shop.example/')`, values);
  }

  await migratePostgres(pool, 14);
  const { rows } = await pool.query(
    'SELECT site_key, directive, blocked_host, disposition, day, reports FROM csp_groups ORDER BY directive COLLATE "C", blocked_host COLLATE "C", disposition COLLATE "C", day',
  );
  expect(rows).toEqual(EXPECTED_CSP_GROUPS);
});
