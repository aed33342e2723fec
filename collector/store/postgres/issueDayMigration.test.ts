import { afterEach, beforeEach, expect, test } from 'vitest';
import { usePostgresDatabase, type TestDatabase } from '../../testing/testDatabase';
import { EXPECTED_DAY_COUNTS, EXPECTED_VISITOR_DAYS, REPORT_COLUMNS, reportValues } from '../../testing/issueDayReports';
import { migratePostgres } from './migrations';
import { createPool } from './pool';

const database = usePostgresDatabase('issue_day_migration');
let schema: TestDatabase;
let pool: ReturnType<typeof createPool>;
beforeEach(async () => {
  schema = await database.schema('issue_days');
  pool = createPool(schema.url);
});
afterEach(async () => {
  await pool.end();
  await schema.drop();
});

test("schema version 13 fills the issues' per-day counts from the stored reports: people's only, per field value, visitors per issue and day", async () => {
  await migratePostgres(pool, 12);
  await pool.query(`INSERT INTO sites (site_key, name, allowed_origins, created_at) VALUES ('shop', 'Shop', '[]', 0)`);
  for (const values of reportValues()) {
    await pool.query(`INSERT INTO error_reports (${REPORT_COLUMNS.join(', ')}) VALUES (${REPORT_COLUMNS.map((_, index) => `$${index + 1}`).join(', ')})`, values);
  }

  await migratePostgres(pool, 13);
  const { rows: visitors } = await pool.query('SELECT * FROM issue_visitor_days ORDER BY fingerprint, day, visitor COLLATE "C"');
  expect(visitors).toEqual(EXPECTED_VISITOR_DAYS);
  const { rows: counts } = await pool.query('SELECT * FROM issue_day_counts ORDER BY field COLLATE "C", value COLLATE "C", day, fingerprint COLLATE "C"');
  expect(counts).toEqual(EXPECTED_DAY_COUNTS);
});
