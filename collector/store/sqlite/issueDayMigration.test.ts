import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { EXPECTED_DAY_COUNTS, EXPECTED_VISITOR_DAYS, REPORT_COLUMNS, reportValues } from '../../testing/issueDayReports';
import { migrate } from './migrations';

test("schema version 18 fills the issues' per-day counts from the stored reports: people's only, per field value, visitors per issue and day", () => {
  const db = new Database(':memory:');
  migrate(db, 17);
  db.prepare(`INSERT INTO sites (site_key, name, allowed_origins, created_at) VALUES ('shop', 'Shop', '[]', 0)`).run();
  const insert = db.prepare(`INSERT INTO error_reports (${REPORT_COLUMNS.join(', ')}) VALUES (${REPORT_COLUMNS.map(() => '?').join(', ')})`);
  for (const values of reportValues()) insert.run(values);

  migrate(db, 18);
  expect(db.prepare('SELECT * FROM issue_visitor_days ORDER BY fingerprint, day, visitor').all()).toEqual(EXPECTED_VISITOR_DAYS);
  expect(db.prepare('SELECT * FROM issue_day_counts ORDER BY field, value, day, fingerprint').all()).toEqual(EXPECTED_DAY_COUNTS);
  db.close();
});
