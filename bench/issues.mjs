// The issues' list at 1,000,000 reports (docs/issues.md, "The list at a million reports"):
// `GET /api/v1/sites/{site_key}/issues` through the collector's app, in-process, on a SQLite file
// seeded in bulk (bench/issuesSeed.mjs: the reports, then what the schema's migrations derive from
// them: the per-day groups, the issues, the issues' per-day counts): seeding through the ingest
// path would take minutes. Each list, then the site page's reads; for each, the median wall time
// and the median CPU time of the process (the collector's reader thread included), over `calls`
// calls. bench/issuesPostgres.mjs does the same on PostgreSQL.
//   BENCH_ISSUES_REPORTS=1000000  reports seeded
//   BENCH_DIST=../dist            the build to measure (a directory relative to this file, or absolute)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DERIVED_SQL, printIssueFigures, REPORT_COLUMNS, reportRows, timeIssueReads } from './issuesSeed.mjs';

const dist = process.env.BENCH_DIST || '../dist';
const { createCollector, createSqliteStore, hashApiKey, newErrorReport, newSiteKey } = await import(`${dist}/collector.js`);

const seedReports = (file, siteKey, options) => {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(`INSERT INTO error_reports (${REPORT_COLUMNS.join(', ')}) VALUES (${REPORT_COLUMNS.map(() => '?').join(', ')})`);
  db.transaction(() => {
    for (const row of reportRows(siteKey, { ...options, newErrorReport })) insert.run(row);
    for (const sql of DERIVED_SQL) db.exec(sql);
  })();
  db.exec('ANALYZE');
  db.close();
};

export const issuesBench = async ({ reports = Number(process.env.BENCH_ISSUES_REPORTS || 1_000_000), fingerprints = 5000, calls = 9 } = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-issues-'));
  const file = join(dir, 'bench.db');
  const now = Date.now();
  try {
    const setup = createSqliteStore({ file });
    const site = await setup.sites.create({ site_key: newSiteKey(), name: 'Bench', allowed_origins: ['https://shop.example'] });
    const key = 'sbk_bench_' + Math.random().toString(36).slice(2);
    await setup.apiKeys.create({ key_hash: hashApiKey(key), name: 'bench', site_key: site.site_key });
    await setup.close();
    const started = performance.now();
    seedReports(file, site.site_key, { reports, fingerprints, now });
    const seedSeconds = (performance.now() - started) / 1000;
    const store = createSqliteStore({ file });
    const app = createCollector({ store, beaconFile: '/dev/null', links: { appUrl: () => 'http://127.0.0.1' }, rateLimits: { perIp: 0, perSite: 0 } });
    const figures = await timeIssueReads(app, { siteKey: site.site_key, key, now, calls });
    await store.close();
    return { reports, fingerprints, seedSeconds, calls, figures };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** Prints the figures of `issuesBench` as a table. */
export const printIssuesBench = (result) => printIssueFigures('SQLite', result);

// `node bench/issues.mjs` alone, after a build.
if (import.meta.url == `file://${process.argv[1]}`) printIssuesBench(await issuesBench());
