// Retention on PostgreSQL, the two ways it could go ("partition by day or batched deletes;
// measure which"; docs/retention.md, "Batched deletes rather than partitions"): BENCH_PARTITION_ROWS (default 1,000,000) error reports older than the cutoff go
//   (a) "batched deletes": from the shipped schema's plain error_reports, by the shipped code
//       (store.retention.deleteBefore: 1,000 rows per transaction, the per-day aggregates updated in
//       each, 20 ms between two, as serve --retention-days does: collector/store/startRetention.ts);
//   (b) "partition by day": from error_reports made PARTITION BY RANGE (received_at), one partition
//       per UTC day, with the same columns and indexes (read from the migrated schema), where each
//       old day is DETACHed, its aggregates deleted in the same transaction, then DROPped.
// Both while the shipped store ingests at a fixed BENCH_PARTITION_RATE requests/s (default 200;
// one request in ten a batch of 50 reports, the rest single reports) through its group commit, on
// a database of its own on a throw-away server (fsync on) or SITEBEACON_BENCH_DATABASE_URL (as
// bench/postgres.mjs). The old reports are seeded with SQL as bench/retention.mjs does, then the
// database is vacuumed and checkpointed, so that ingest starts on a settled server. Reported as
// JSON per way: how long the deletion took, insert p50/p99 (from each request's scheduled time, so
// waiting counts) for singles and batches during the deletion and in the BENCH_DURATION s before,
// the reports table's size with its indexes before, right after and after a VACUUM, and whether
// the aggregates still add up. Not part of `npm run bench` (minutes at the default size).
// Run alone (needs `npm run build`): BENCH_PARTITION_ROWS=20000 BENCH_DURATION=1 node bench/partitionRetention.mjs
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { newErrorReport, openStore } from '../dist/collector.js';
import { errorReport } from './ingest.mjs';
import { openBenchPostgres } from './postgres.mjs';
import { CONSISTENT, SEED_GROUPS, seedRows } from './retention.mjs';
import { CLI } from './startServer.mjs';

const DAY = 86_400_000;
/** What startRetention does by default (collector/store/startRetention.ts). */
const RETENTION_BATCH = 1000;
const RETENTION_PAUSE_MS = 20;
/** The stream's first second is not measured: the pool's connections open, statements are prepared. */
const WARM_UP_MS = 1000;
/** One request in BATCH_EVERY is a batch of BATCH_SIZE reports. */
const BATCH_EVERY = 10;
const BATCH_SIZE = 50;
const SINGLE = [newErrorReport(errorReport(0))];
const BATCH = Array.from({ length: BATCH_SIZE }, (_, i) => newErrorReport(errorReport(i)));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value, digits = 1) => Number(value.toFixed(digits));

/** The reports table alone and with its indexes, in MB: a partitioned table's partitions added up (pg_partition_tree lists no plain table). */
const TABLE_SIZE = `SELECT sum(pg_table_size(oid)) / 1048576.0 AS table, sum(pg_total_relation_size(oid)) / 1048576.0 AS total
  FROM (SELECT 'error_reports'::regclass AS oid UNION SELECT relid FROM pg_partition_tree('error_reports')) AS tree`;
const OLD = `SELECT count(*)::int AS n FROM error_reports WHERE received_at < $1`;

/**
 * Replaces the migrated, empty error_reports with one partitioned by day: the same columns (LIKE),
 * the same secondary indexes (their definitions read from the catalogue), the same foreign key.
 * What partitioning costs the schema shows here: the primary key must hold the partition key
 * ((id, received_at), so `id` alone is no longer unique to PostgreSQL), and an identity column is
 * not allowed on a partitioned table before PostgreSQL 17 (a sequence default instead).
 */
const partitionByDay = async (client, days) => {
  const { rows } = await client.query(
    `SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'error_reports' AND indexname <> 'error_reports_pkey'`,
  );
  await client.query('BEGIN');
  await client.query('CREATE TABLE error_reports_by_day (LIKE error_reports INCLUDING DEFAULTS) PARTITION BY RANGE (received_at)');
  await client.query('DROP TABLE error_reports');
  await client.query('ALTER TABLE error_reports_by_day RENAME TO error_reports');
  await client.query('CREATE SEQUENCE error_reports_id_seq OWNED BY error_reports.id');
  await client.query(`ALTER TABLE error_reports ALTER COLUMN id SET DEFAULT nextval('error_reports_id_seq')`);
  await client.query('ALTER TABLE error_reports ADD PRIMARY KEY (id, received_at)');
  await client.query('ALTER TABLE error_reports ADD FOREIGN KEY (site_key) REFERENCES sites (site_key)');
  for (const { indexdef } of rows) await client.query(indexdef);
  for (const day of days) {
    await client.query(`CREATE TABLE error_reports_d${day} PARTITION OF error_reports FOR VALUES FROM (${day * DAY}) TO (${(day + 1) * DAY})`);
  }
  await client.query('COMMIT');
};

/** The two ways: how the table is made (after the migration), and how the old reports go. */
const ways = {
  'batched deletes': {
    prepare: async () => {},
    remove: async ({ store, cutoff }) => {
      for (let batches = 1; ; batches++) {
        if ((await store.retention.deleteBefore(cutoff, { limit: RETENTION_BATCH })) < RETENTION_BATCH) return { batches };
        await sleep(RETENTION_PAUSE_MS);
      }
    },
  },
  'partition by day': {
    prepare: partitionByDay,
    // Whole days only: the day the cutoff falls in stays until it has passed (a product would delete
    // its older part in batches, or keep up to a day more than asked). Here no seeded report is in it.
    remove: async ({ client, cutoff, days }) => {
      let longestDetachMs = 0;
      const old = days.filter((day) => (day + 1) * DAY <= cutoff);
      for (const day of old) {
        const started = performance.now();
        await client.query('BEGIN');
        // ACCESS EXCLUSIVE on error_reports until COMMIT: ingest's inserts wait for it.
        await client.query(`ALTER TABLE error_reports DETACH PARTITION error_reports_d${day}`);
        await client.query('DELETE FROM error_groups WHERE day = $1', [day]);
        await client.query('COMMIT');
        longestDetachMs = Math.max(longestDetachMs, performance.now() - started);
        await client.query(`DROP TABLE error_reports_d${day}`);
      }
      return { daysDropped: old.length, longestDetachMs: round(longestDetachMs) };
    },
  },
};

/**
 * Ingest at `rate` requests/s through the store, open loop: request i is due at start + i/rate and
 * its latency counts from then, so a request held up by a lock or a full pool shows its wait.
 */
const insertStream = (store, rate) => {
  const started = performance.now();
  const samples = { warmUp: { single: [], batch: [] }, before: { single: [], batch: [] }, during: { single: [], batch: [] } };
  let phase = 'warmUp';
  let due = 0;
  let failed = 0;
  let reports = 0;
  const inFlight = new Set();
  const timer = setInterval(() => {
    for (const until = Math.floor(((performance.now() - started) * rate) / 1000); due < until; due++) {
      const scheduled = started + (due * 1000) / rate;
      const kind = due % BATCH_EVERY == BATCH_EVERY - 1 ? 'batch' : 'single';
      const into = samples[phase][kind];
      const write = store.errors
        .insert('default', kind == 'batch' ? BATCH : SINGLE, { received_at: Date.now(), user_agent: 'bench' })
        .then(
          (stored) => {
            into.push(performance.now() - scheduled);
            reports += stored;
          },
          () => failed++,
        )
        .finally(() => inFlight.delete(write));
      inFlight.add(write);
    }
  }, 1);
  return {
    before: () => (phase = 'before'),
    during: () => (phase = 'during'),
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return { samples, failed, requests: due, reports };
    },
  };
};

/** The value at rank ceil(q * n) (nearest rank), in ms. */
const percentile = (values, q) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)], 2);
};
const latencies = (values) => ({ requests: values.length, p50Ms: percentile(values, 0.5), p99Ms: percentile(values, 0.99) });

/** One way on a fresh database: migrate, make the table, seed, ingest, delete under ingest, measure. */
const measureWay = async (postgres, name, way, { rows, rate, duration }) => {
  const database = await postgres.database();
  execFileSync(process.execPath, [CLI, 'migrate', '--database-url', database.url]);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  let store;
  try {
    const now = Date.now();
    const first = now - 9 * DAY;
    const step = Math.max(1, Math.floor((7 * DAY) / rows));
    const days = [];
    for (let day = Math.floor(first / DAY); day <= Math.floor(now / DAY) + 2; day++) days.push(day);
    await way.prepare(client, days);
    const seedStarted = performance.now();
    await client.query(seedRows(`generate_series(0, ${rows - 1}) AS i`).replace('char(10)', 'chr(10)').replace('$2', String(first)).replace('$3', String(step)));
    await client.query(SEED_GROUPS);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    // Settled before ingest starts: without this, autovacuum's pass over the million new rows and
    // the checkpoint of their WAL land in the "before" figures (p99 of seconds in a first run).
    await client.query('VACUUM ANALYZE');
    await client.query('CHECKPOINT').catch(() => {}); // a superuser's (or pg_checkpoint's) on a server of yours
    const cutoff = now - DAY;
    const size = async () => {
      const [{ table, total }] = (await client.query(TABLE_SIZE)).rows;
      return { tableMB: round(Number(table)), withIndexesMB: round(Number(total)) };
    };
    const sizeBefore = await size();
    const oldBefore = (await client.query(OLD, [cutoff])).rows[0].n;

    store = await openStore(database.url);
    const stream = insertStream(store, rate);
    await sleep(WARM_UP_MS);
    stream.before();
    await sleep(duration * 1000);
    stream.during();
    const started = performance.now();
    const removed = await way.remove({ store, client, cutoff, days });
    const deletionSeconds = (performance.now() - started) / 1000;
    const { samples, failed, requests, reports } = await stream.stop();

    const sizeAfter = await size();
    await client.query('VACUUM error_reports');
    const [{ aggregated, stored }] = (await client.query(CONSISTENT)).rows;
    return {
      way: name,
      oldRows: oldBefore,
      oldRowsLeft: (await client.query(OLD, [cutoff])).rows[0].n,
      seedSeconds: round(seedSeconds),
      deletionSeconds: round(deletionSeconds, 2),
      rowsPerSecond: Math.round(oldBefore / deletionSeconds),
      ...removed,
      rate,
      before: { single: latencies(samples.before.single), batch: latencies(samples.before.batch) },
      during: { single: latencies(samples.during.single), batch: latencies(samples.during.batch) },
      requests: requests - samples.warmUp.single.length - samples.warmUp.batch.length,
      failedRequests: failed,
      // Stored by the stream from its start (warm-up too): what the table holds after the deletion.
      reportsInserted: reports,
      reportsLeft: Number(stored),
      sizeBefore,
      sizeAfter,
      sizeAfterVacuum: await size(),
      aggregatesConsistent: Number(aggregated) == Number(stored),
    };
  } finally {
    await store?.close();
    await client.end();
    await database.drop();
  }
};

export const partitionRetentionBench = async ({ rows = 1_000_000, rate = 200, duration = 5 } = {}) => {
  const postgres = await openBenchPostgres();
  const results = [];
  try {
    for (const [name, way] of Object.entries(ways)) results.push(await measureWay(postgres, name, way, { rows, rate, duration }));
  } finally {
    postgres.stop();
  }
  return results;
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = await partitionRetentionBench({
    rows: Number(process.env.BENCH_PARTITION_ROWS || 1_000_000),
    rate: Number(process.env.BENCH_PARTITION_RATE || 200),
    duration: Number(process.env.BENCH_DURATION || 5),
  });
  console.log(JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2));
}
