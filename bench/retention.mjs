// Retention under load (docs/retention.md): `sitebeacon serve --retention-days 1` deleting BENCH_RETENTION_ROWS
// (default 1,000,000) old error reports, 1,000 per transaction (collector/store/startRetention.ts),
// while single error reports arrive at a fixed BENCH_RETENTION_RATE requests/s (default 200, over
// 10 connections). Reported per store: how long the deletion took, the ingest p99 meanwhile beside
// its p99 at the same rate with nothing to delete (BENCH_DURATION s), non-2xx answers, and whether
// the per-day aggregates still add up to the reports that remain. The old reports are seeded with
// SQL (a minute of inserts through HTTP would measure something else), their aggregates as the
// SQLite migration 5 builds them.
// Run alone: BENCH_RETENTION_ROWS=20000 BENCH_DURATION=1 node bench/retention.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import { errorReport } from './ingest.mjs';
import { openBenchPostgres } from './postgres.mjs';
import { CLI, startServer } from './startServer.mjs';

const DAY = 86_400_000;
const CONNECTIONS = 10;
const BODY = JSON.stringify(errorReport());

// `series` numbers the rows i from 0, $2 is the first one's time, $3 the time between two rows: 1,000 error groups over 7 days.
// (Exported, with SEED_GROUPS and CONSISTENT, for bench/partitionRetention.mjs.)
export const seedRows = (series) => `INSERT INTO error_reports (site_key, received_at, error_type, error_name, error_message, stack, page_url, fingerprint)
  SELECT 'default', $2 + CAST(i AS BIGINT) * $3, 'javascript_error', 'TypeError', 'Cannot read properties of undefined (field ' || (i % 1000) || ')',
    'TypeError: x' || char(10) || '    at handler (https://shop.example/app.js:1:' || (i % 1000) || ')', 'https://shop.example/cart',
    'f' || (i % 1000)
  FROM ${series}`;
export const SEED_GROUPS = `INSERT INTO error_groups
  SELECT site_key, fingerprint, received_at / ${DAY}, COUNT(*), SUM(coalesce(count, 1)), MIN(received_at), MAX(received_at),
    MIN(error_type), MIN(error_name), MIN(error_message)
  FROM error_reports GROUP BY site_key, fingerprint, received_at / ${DAY}`;
const OLD = `SELECT count(*) AS n FROM error_reports WHERE site_key = 'default' AND received_at < $1`;
export const CONSISTENT = `SELECT (SELECT coalesce(SUM(reports), 0) FROM error_groups WHERE site_key = 'default') AS aggregated,
  (SELECT count(*) FROM error_reports WHERE site_key = 'default') AS stored`;

/** The two stores, each a fresh database: its location, SQL on it, and cleanup. */
const stores = {
  SQLite: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-retention-bench-'));
    const file = join(dir, 'bench.db');
    execFileSync(process.execPath, [CLI, 'migrate', '--db', file]);
    const db = new Database(file);
    db.pragma('busy_timeout = 5000');
    return {
      args: ['--db', file],
      // PostgreSQL's parameters are $N, SQLite's ?: the statements above are written once, each $N used once, in order.
      sql: async (text, values = []) => {
        const statement = db.prepare(text.replace(/\$\d/g, '?'));
        return statement.reader ? statement.all(...values) : (statement.run(...values), []);
      },
      series: (rows) => `(WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${rows - 1}) SELECT i FROM s)`,
      close: async () => {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  PostgreSQL: async (postgres) => {
    const database = await postgres.database();
    execFileSync(process.execPath, [CLI, 'migrate', '--database-url', database.url]);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    return {
      args: ['--database-url', database.url],
      sql: async (text, values) => (await client.query(text.replace('char(10)', 'chr(10)'), values)).rows,
      series: (rows) => `generate_series(0, ${rows - 1}) AS i`,
      close: async () => {
        await client.end();
        await database.drop();
      },
    };
  },
};

/** Single error reports at `rate` requests/s until `stop()`; resolves to autocannon's result. */
const steadyLoad = (url, rate, seconds) => {
  let instance;
  const done = new Promise((resolve, reject) => {
    instance = autocannon(
      { url: `${url}/api/error-reports`, connections: CONNECTIONS, overallRate: rate, duration: seconds, method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  return { done, stop: () => instance.stop() };
};

const serve = (store, ...args) =>
  startServer([CLI, 'serve', '--json', '--port', '0', ...store.args, '--rate-limit', '0', '--site-rate-limit', '0', '--log-level', 'silent', ...args]);

/** One store: seed, ingest p99 without deletion, then with `--retention-days 1` until every old report is gone. */
const measureStore = async (name, store, { rows, rate, duration }) => {
  const first = Date.now() - 9 * DAY;
  const step = Math.max(1, Math.floor((7 * DAY) / rows));
  const seedStarted = performance.now();
  await store.sql(seedRows(store.series(rows)).replace('$2', String(first)).replace('$3', String(step)));
  await store.sql(SEED_GROUPS);
  if (name == 'PostgreSQL') await store.sql('ANALYZE');
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  const idle = await serve(store);
  let idleResult;
  try {
    idleResult = await steadyLoad(idle.url, rate, duration).done;
  } finally {
    await idle.stop();
  }

  const cutoff = Date.now() - DAY;
  const collector = await serve(store, '--retention-days', '1');
  const started = performance.now();
  const load = steadyLoad(collector.url, rate, 3600);
  try {
    while (Number((await store.sql(OLD, [cutoff]))[0].n) > 0) await new Promise((resolve) => setTimeout(resolve, 250));
  } finally {
    load.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const during = await load.done;
  await collector.stop();
  const [{ aggregated, stored }] = await store.sql(CONSISTENT);
  return {
    store: name,
    rowsDeleted: rows,
    seedSeconds,
    deletionSeconds: seconds,
    rowsPerSecond: rows / seconds,
    rate,
    p99IdleMs: idleResult.latency.p99,
    p99Ms: during.latency.p99,
    requests: during.requests.total,
    non2xx: during.non2xx + during.errors + during.timeouts + idleResult.non2xx + idleResult.errors + idleResult.timeouts,
    aggregatesConsistent: Number(aggregated) == Number(stored),
  };
};

export const retentionBench = async ({ rows = 1_000_000, rate = 200, duration = 5 } = {}) => {
  const postgres = await openBenchPostgres();
  const results = [];
  try {
    for (const [name, open] of Object.entries(stores)) {
      const store = await open(postgres);
      try {
        results.push(await measureStore(name, store, { rows, rate, duration }));
      } finally {
        await store.close();
      }
    }
  } finally {
    postgres.stop();
  }
  return results;
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await retentionBench({
    rows: Number(process.env.BENCH_RETENTION_ROWS || 1_000_000),
    rate: Number(process.env.BENCH_RETENTION_RATE || 200),
    duration: Number(process.env.BENCH_DURATION || 5),
  });
  console.table(rows);
}
