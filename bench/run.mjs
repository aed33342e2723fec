// `npm run bench`: every measured figure (ingest, the read path, the beacon's cost...) in one table, written as JSON to
// bench/results/. Loopback only; every part is bounded in time.
//   BENCH_DURATION=5     seconds of load per ingest measurement
//   BENCH_REPORTS=1000000  reports seeded for the /summary measurement
//   BENCH_RUNS=3         runs of each PostgreSQL measurement (the median is shown)
//   BENCH_RETENTION_ROWS=1000000  old reports `serve --retention-days` deletes under load, per store
//   BENCH_RETENTION_RATE=200      requests/s of ingest meanwhile
//   BENCH_SOAK_SECONDS=300 seconds of the soak whose memory is a goal (0 skips it)
//   BENCH_DASHBOARD_REPORTS=1000000  reports seeded for the dashboard's site page in Chromium
//   BENCH_DASHBOARD_LOADS=5          page loads whose median is the figure
//   BENCH_READ_REPORTS=300000  reports of site A whose error groups are read while site B ingests
//   BENCH_READS_RATE=200       requests/s of site B's ingest meanwhile
//   BENCH_ISSUES_REPORTS=1000000  reports seeded for the issues' list (bench/issues.mjs; bench/issuesPostgres.mjs on PostgreSQL)
//   BENCH_MAPS=20 BENCH_MAP_MB=16  big source maps uploaded for the memory figure (bench/sourceMaps.mjs)
//   BENCH_ALERTS_REPORTS=200000 BENCH_ALERTS_SAMPLES=100000  what the periodic alert rules read (bench/alerts.mjs)
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { activityBench, printActivityBench } from './activity.mjs';
import { beaconBench } from './beacon.mjs';
import { cspSuggestionBench } from './cspSuggestion.mjs';
import { dashboardBench } from './dashboard.mjs';
import { goalRows, sizeFigures, soakFigures } from './goals.mjs';
import { ingestBench } from './ingest.mjs';
import { issuesBench, printIssuesBench } from './issues.mjs';
import { issuesPostgresBench } from './issuesPostgres.mjs';
import { printIssueFigures } from './issuesSeed.mjs';
import { postgresIngestBench } from './postgres.mjs';
import { readsUnderIngestBench } from './readsUnderIngest.mjs';
import { retentionBench } from './retention.mjs';
import { printSourceMapsBench, sourceMapsBench } from './sourceMaps.mjs';
import { summaryBench } from './summary.mjs';

const duration = Number(process.env.BENCH_DURATION || 5);
const reports = Number(process.env.BENCH_REPORTS || 1_000_000);
const runs = Number(process.env.BENCH_RUNS || 3);
const retentionRows = Number(process.env.BENCH_RETENTION_ROWS || 1_000_000);
const retentionRate = Number(process.env.BENCH_RETENTION_RATE || 200);
const soakSeconds = Number(process.env.BENCH_SOAK_SECONDS ?? 300);
const dashboardReports = Number(process.env.BENCH_DASHBOARD_REPORTS || 1_000_000);
const dashboardLoads = Number(process.env.BENCH_DASHBOARD_LOADS || 5);
const readReports = Number(process.env.BENCH_READ_REPORTS || 300_000);
const readRate = Number(process.env.BENCH_READS_RATE || 200);
const round = (value, digits = 0) => Number(value.toFixed(digits));

console.log(`ingest: ${duration} s per measurement, 50 connections; summary over ${reports} reports; beacon start in Chromium`);
const results = {
  date: new Date().toISOString(),
  node: process.version,
  ingest: await ingestBench({ duration }),
  postgres: await postgresIngestBench({ duration, runs }),
  retention: await retentionBench({ rows: retentionRows, rate: retentionRate, duration }),
  readsUnderIngest: await readsUnderIngestBench({ reports: readReports, rate: readRate, duration }),
  summary: await summaryBench({ reports }),
  activity: await activityBench({ reports }),
  issues: await issuesBench(),
  sourceMaps: await sourceMapsBench({ maps: Number(process.env.BENCH_MAPS || 20), mapMb: Number(process.env.BENCH_MAP_MB || 20) }),
  issuesPostgres: await issuesPostgresBench(),
  beacon: await beaconBench(),
  cspSuggestion: await cspSuggestionBench(),
  dashboard: await dashboardBench({ reports: dashboardReports, loads: dashboardLoads }),
  sizes: sizeFigures(),
  soak: soakFigures(soakSeconds),
};

console.log('\nIngest: bare node:http (the ceiling) against sitebeacon serve, side by side');
console.table(
  Object.fromEntries(
    results.ingest.map((row) => [
      row.scenario,
      {
        'ceiling req/s': round(row.ceiling.requestsPerSecond),
        'sitebeacon req/s': round(row.sitebeacon.requestsPerSecond),
        'ratio (goal 0.6)': round(row.ratio, 2),
        'sitebeacon reports/s': round(row.sitebeacon.reportsPerSecond),
        'p50 ms': row.sitebeacon.p50Ms,
        'p99 ms (goal < 25)': row.sitebeacon.p99Ms,
        'ceiling p99 ms': row.ceiling.p99Ms,
        'non-2xx': row.sitebeacon.non2xx + row.sitebeacon.errors,
      },
    ]),
  ),
);
console.log(`\nIngest by store: SQLite (above) and PostgreSQL, one process and two on one database (median of ${runs})`);
console.table(
  Object.fromEntries([
    ...results.ingest
      .filter((row) => row.scenario.startsWith('error report'))
      .map((row) => [`${row.scenario}, SQLite`, { 'req/s': round(row.sitebeacon.requestsPerSecond), 'reports/s': round(row.sitebeacon.reportsPerSecond), 'p99 ms': row.sitebeacon.p99Ms, 'non-2xx': row.sitebeacon.non2xx + row.sitebeacon.errors }]),
    ...results.postgres.map((row) => [`${row.scenario}, ${row.store}`, { 'req/s': round(row.requestsPerSecond), 'reports/s': round(row.reportsPerSecond), 'p99 ms': row.p99Ms, 'non-2xx': row.non2xx }]),
  ]),
);
console.log(`\nRetention: serve --retention-days 1 deleting ${retentionRows} old reports while ${retentionRate} single reports/s arrive`);
console.table(
  Object.fromEntries(
    results.retention.map((row) => [
      row.store,
      {
        'deletion s': round(row.deletionSeconds, 1),
        'rows/s': round(row.rowsPerSecond),
        'ingest p99 ms meanwhile': row.p99Ms,
        'ingest p99 ms, nothing to delete': row.p99IdleMs,
        'non-2xx': row.non2xx,
        'aggregates = reports': row.aggregatesConsistent,
      },
    ]),
  ),
);
const reads = results.readsUnderIngest;
console.log(
  `\nReads beside ingest (SQLite): site B's single reports at ${reads.rate} requests/s while ${reads.readLoops} loops of site A's key read its error groups over ${reads.reports} reports`,
);
console.table({
  [`site B ingest`]: {
    'p99 ms, A reading': reads.p99Ms,
    'p99 ms, no reads (goal: within twice)': reads.p99BaselineMs,
    'non-2xx': reads.non2xx,
    'A reads/s': round(reads.readsPerSecond, 1),
    'A read median ms': round(reads.readMedianMs),
    'A reads 429': reads.readsRateLimited,
  },
});
const { summary, beacon, cspSuggestion, dashboard } = results;
const ms = (value) => round(value, 3);
console.log('\nRead path, beacon');
console.table({
  [`/summary over ${summary.reports} reports, median of ${summary.calls} (ms, goal < 250)`]: { value: ms(summary.medianMs) },
  ['/summary?since=7 days ago (ms)']: { value: ms(summary.medianMsSince7Days) },
  ['dashboard site page data: daily, error-groups, csp-groups, vitals, pages for 7 days, together (ms, goal < 1000)']: { value: ms(summary.sitePageApiMs) },
  ['beacon.min.js raw / gzip -9 / brotli 11 (B)']: { value: `${beacon.size.raw} / ${beacon.size.gzip} / ${beacon.size.brotli}` },
  [`beacon start, main thread, cold renderer (ms, median of ${beacon.loads}, goal < 1)`]: { value: ms(beacon.start.beacon.coldMs), 'web-vitals IIFE alone': ms(beacon.start['web-vitals'].coldMs) },
  [`beacon start, main thread, warm reload (ms, goal < 1)`]: { value: ms(beacon.start.beacon.warmMs), 'web-vitals IIFE alone': ms(beacon.start['web-vitals'].warmMs) },
  [`CSP suggested-policy, ${cspSuggestion.hosts} distinct blocked hosts (ms, median / p99 of ${cspSuggestion.calls})`]: {
    value: `${ms(cspSuggestion.suggestion.medianMs)} / ${ms(cspSuggestion.suggestion.p99Ms)}`,
  },
  [`${cspSuggestion.health.path} p99 meanwhile (ms, goal < 100)`]: { value: ms(cspSuggestion.health.p99Ms), 'idle p99': ms(cspSuggestion.health.idleP99Ms) },
  [`dashboard site page over ${dashboard.reports} reports in Chromium: interactive, median of ${dashboard.loads} (ms, goal < 1000)`]: {
    value: dashboard.interactiveMs,
    'every section drawn (ms)': dashboard.completeMs,
    'read API / server CPU / long tasks (ms)': `${dashboard.apiMs} / ${dashboard.serverCpuMs} / ${dashboard.longTaskMs}`,
    'load average': dashboard.loadAverage,
  },
});
printActivityBench(results.activity);
printIssuesBench(results.issues);
printSourceMapsBench(results.sourceMaps);
printIssueFigures('PostgreSQL', results.issuesPostgres);
// What serve's periodic alert rules read each minute: a script of its own (it prints its figures).
console.log();
spawnSync(process.execPath, [new URL('./alerts.mjs', import.meta.url).pathname], { stdio: 'inherit' });

console.log('\nThe performance goals (README, "Performance goals")');
console.table(goalRows(results));

mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
const file = new URL(`./results/bench-${results.date.replace(/[:.]/g, '-')}.json`, import.meta.url);
writeFileSync(file, JSON.stringify(results, null, 2));
console.log(`written to ${file.pathname}`);
