// What serve's periodic alert rules read each minute (docs/alerts.md, "Spikes", "Poor vitals"), on
// a SQLite file seeded in bulk: one site's reports over the last 24 hours (2,000 fingerprints on a
// Zipf curve) and performance samples; the store's spikeCounts for a 10-minute and a 1,440-minute
// window, and vitalP75 over 24 hours. Median wall time of `calls` calls; in serve the reads run on
// the SQLite reader thread, so this is the reader's time each minute per rule.
//   BENCH_ALERTS_REPORTS=200000   reports seeded
//   BENCH_ALERTS_SAMPLES=100000   LCP samples seeded
//   BENCH_DIST=../dist            the build to measure (a directory relative to this file)
//   node bench/alerts.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const DAY = 86_400_000;
const dist = process.env.BENCH_DIST || '../dist';
const { createSqliteStore, newSiteKey } = await import(`${dist}/collector.js`);

const reports = Number(process.env.BENCH_ALERTS_REPORTS || 200_000);
const samples = Number(process.env.BENCH_ALERTS_SAMPLES || 100_000);
const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-bench-alerts-'));
const file = join(dir, 'sitebeacon.db');
try {
  const now = Date.now();
  const store = createSqliteStore({ file });
  const site = newSiteKey();
  await store.sites.create({ site_key: site, name: 'Shop', allowed_origins: ['https://shop.example'] });
  await store.close();

  let seed = 7;
  const next = () => ((seed = (Math.imul(seed ^ (seed >>> 15), 2246822507) + 0x6d2b79f5) >>> 0), seed / 2 ** 32);
  const weights = Array.from({ length: 2000 }, (_, rank) => 1 / (rank + 1));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const pick = () => {
    let target = next() * total;
    for (const [index, weight] of weights.entries()) if ((target -= weight) <= 0) return index;
    return weights.length - 1;
  };
  const db = new Database(file);
  const insert = db.prepare('INSERT INTO error_reports (site_key, received_at, error_type, error_message, fingerprint, count) VALUES (?, ?, ?, ?, ?, ?)');
  const session = db.prepare('INSERT INTO performance_sessions (site_key, session_id, received_at, updated_at, metrics) VALUES (?, ?, ?, ?, ?)');
  const metric = db.prepare('INSERT INTO performance_metrics (session_row, site_key, name, value, updated_at) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let n = 0; n < reports; n++) {
      const index = pick();
      insert.run(site, now - Math.floor(next() * DAY), 'javascript_error', `failure ${index}`, index.toString(16).padStart(16, '0'), 1);
    }
    for (let n = 0; n < samples; n++) {
      const at = now - Math.floor(next() * DAY);
      const row = session.run(site, `s${n}`, at, at, '{}').lastInsertRowid;
      metric.run(row, site, 'LCP', 500 + next() * 5000, at);
    }
    db.exec(`INSERT INTO error_groups SELECT site_key, fingerprint, received_at / ${DAY}, COUNT(*), SUM(coalesce(count, 1)), MIN(received_at), MAX(received_at),
      error_type, NULL, error_message FROM error_reports GROUP BY site_key, fingerprint, received_at / ${DAY}`);
  })();
  db.exec('ANALYZE');
  db.close();

  const reader = createSqliteStore({ file });
  const time = async (read, calls = 15) => {
    const wall = [];
    for (let i = 0; i < calls; i++) {
      const t0 = performance.now();
      await read();
      wall.push(performance.now() - t0);
    }
    return wall.sort((a, b) => a - b)[Math.floor(calls / 2)].toFixed(1);
  };
  const today = Math.floor(now / DAY);
  const spike = (minutes) => () => reader.alerts.spikeCounts(site, { since: now - minutes * 60_000, until: now, fromDay: today - 7, toDay: today, limit: 100 });
  console.log(`Periodic alert reads, SQLite, ${reports.toLocaleString('en')} reports and ${samples.toLocaleString('en')} LCP samples in the last 24 h (median ms)`);
  console.log(`  spikeCounts, 10-minute window:   ${await time(spike(10))}`);
  console.log(`  spikeCounts, 1,440-minute window: ${await time(spike(1440))}`);
  console.log(`  vitalP75 over 24 hours:           ${await time(() => reader.alerts.vitalP75(site, 'LCP', { since: now - DAY, until: now }))}`);
  await reader.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
