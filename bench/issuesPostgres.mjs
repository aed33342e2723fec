// The issues' list at 1,000,000 reports on PostgreSQL, as bench/issues.mjs measures it on SQLite:
// the same reports (bench/issuesSeed.mjs) inserted in bulk into a fresh database of the benchmarks'
// server (bench/postgres.mjs `openBenchPostgres`: SITEBEACON_BENCH_DATABASE_URL, else a throw-away
// one), what the migrations derive from them, VACUUM ANALYZE (as autovacuum would leave a table
// that has stopped growing: its visibility map set, so an index alone answers), then each list and
// the site page's reads through the collector's app, in-process.
//   BENCH_ISSUES_REPORTS=1000000  reports seeded
//   BENCH_DIST=../dist            the build to measure
import pg from 'pg';
import { openBenchPostgres } from './postgres.mjs';
import { DERIVED_SQL, printIssueFigures, REPORT_COLUMNS, reportRows, timeIssueReads } from './issuesSeed.mjs';

const dist = process.env.BENCH_DIST || '../dist';
const { createCollector, hashApiKey, newErrorReport, newSiteKey, openStore } = await import(`${dist}/collector.js`);

const TYPES = { received_at: 'int8', count: 'int8', bot: 'int2' };

const seedReports = async (url, siteKey, options) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const insert = `INSERT INTO error_reports (${REPORT_COLUMNS.join(', ')})
      SELECT * FROM unnest(${REPORT_COLUMNS.map((column, index) => `$${index + 1}::${TYPES[column] ?? 'text'}[]`).join(', ')})`;
    let batch = [];
    const flush = async () => {
      if (batch.length) await client.query(insert, REPORT_COLUMNS.map((_, column) => batch.map((row) => row[column])));
      batch = [];
    };
    for (const row of reportRows(siteKey, { ...options, newErrorReport })) {
      batch.push(row);
      if (batch.length == 10_000) await flush();
    }
    await flush();
    for (const sql of DERIVED_SQL) await client.query(sql);
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
};

export const issuesPostgresBench = async ({ reports = Number(process.env.BENCH_ISSUES_REPORTS || 1_000_000), fingerprints = 5000, calls = 9 } = {}) => {
  const postgres = await openBenchPostgres();
  const database = await postgres.database();
  const now = Date.now();
  try {
    const store = await openStore(database.url);
    const site = await store.sites.create({ site_key: newSiteKey(), name: 'Bench', allowed_origins: ['https://shop.example'] });
    const key = 'sbk_bench_' + Math.random().toString(36).slice(2);
    await store.apiKeys.create({ key_hash: hashApiKey(key), name: 'bench', site_key: site.site_key });
    const started = performance.now();
    await seedReports(database.url, site.site_key, { reports, fingerprints, now });
    const seedSeconds = (performance.now() - started) / 1000;
    const app = createCollector({ store, beaconFile: '/dev/null', links: { appUrl: () => 'http://127.0.0.1' }, rateLimits: { perIp: 0, perSite: 0 } });
    const figures = await timeIssueReads(app, { siteKey: site.site_key, key, now, calls });
    await store.close();
    return { reports, fingerprints, seedSeconds, calls, figures };
  } finally {
    await database.drop();
    await postgres.stop();
  }
};

// `node bench/issuesPostgres.mjs` alone, after a build.
if (import.meta.url == `file://${process.argv[1]}`) printIssueFigures('PostgreSQL', await issuesPostgresBench());
