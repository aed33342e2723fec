import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { CSP_REPORT_COLUMNS, cspReportValues, EXPECTED_CSP_GROUPS } from '../../testing/cspGroupReports';
import { migrate } from './migrations';

test('schema version 19 counts csp_groups per disposition, rebuilt from the stored reports', () => {
  const db = new Database(':memory:');
  migrate(db, 18);
  db.prepare(`INSERT INTO sites (site_key, name, allowed_origins, created_at) VALUES ('shop', 'Shop', '[]', 0)`).run();
  const insert = db.prepare(
    `INSERT INTO csp_reports (${CSP_REPORT_COLUMNS.join(', ')}, document_uri) VALUES (${CSP_REPORT_COLUMNS.map(() => '?').join(', ')}, 'https://shop.example/')`,
  );
  for (const values of cspReportValues()) insert.run(values);

  migrate(db, 19);
  expect(db.prepare('SELECT site_key, directive, blocked_host, disposition, day, reports FROM csp_groups ORDER BY directive, blocked_host, disposition, day').all()).toEqual(
    EXPECTED_CSP_GROUPS,
  );
  db.close();
});
