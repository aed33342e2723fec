// Ingest on PostgreSQL (docs/scale-out.md): `sitebeacon serve --database-url` as one process, and as two
// processes on one database with the load split between them (the bench's own round-robin: half
// the connections to each), beside the SQLite rows of bench/ingest.mjs, for single error reports,
// batches of 50, and CSP arrays of 1 and of 50 (each report a distinct violation). Each figure is the median of BENCH_RUNS runs (default 3) of BENCH_DURATION s.
// The database: SITEBEACON_BENCH_DATABASE_URL (a server of yours; a database is created and dropped
// in it per run), else a throw-away server from the system's PostgreSQL with fsync on.
// Run alone: BENCH_DURATION=1 BENCH_RUNS=1 node bench/postgres.mjs
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPostgresServer } from '../collector/testing/postgresServer.mjs';
import { load, scenarios as ingestScenarios } from './ingest.mjs';
import { CLI, startServer } from './startServer.mjs';

const SCENARIOS = ['error report, single', 'error reports, batch of 50', 'CSP, Reporting API array of 1, each distinct', 'CSP, Reporting API array of 50, each distinct'];
const scenarios = SCENARIOS.map((name) => ingestScenarios.find((scenario) => scenario.name == name));
const CONNECTIONS = 50;

const admin = async (url, sql) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

/**
 * The benchmarks' PostgreSQL server: SITEBEACON_BENCH_DATABASE_URL (a server of yours), else a
 * throw-away one from the system's PostgreSQL with fsync on. `database()` makes a fresh database
 * on it, `drop()` removes that again.
 */
export const openBenchPostgres = async () => {
  const server = process.env.SITEBEACON_BENCH_DATABASE_URL ? undefined : await startPostgresServer({ durable: true });
  const adminUrl = process.env.SITEBEACON_BENCH_DATABASE_URL || server.url('postgres');
  return {
    async database() {
      const name = `sitebeacon_bench_${randomBytes(4).toString('hex')}`;
      await admin(adminUrl, `CREATE DATABASE ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return { url: url.href, drop: () => admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
    },
    stop: () => server?.stop(),
  };
};

/** One measurement on a fresh database: `processes` collectors, the connections split between them. */
const measure = async (postgres, scenario, processes, duration) => {
  const database = await postgres.database();
  const args = [CLI, 'serve', '--json', '--port', '0', '--database-url', database.url, '--rate-limit', '0', '--site-rate-limit', '0', '--log-level', 'silent'];
  const collectors = [];
  try {
    // One after the other: the first migrates the new database.
    for (let i = 0; i < processes; i++) collectors.push(await startServer(args));
    const results = await Promise.all(collectors.map((collector) => load(collector.url, scenario, duration, CONNECTIONS / processes)));
    const requestsPerSecond = results.reduce((sum, result) => sum + result.requests.average, 0);
    return {
      requestsPerSecond,
      reportsPerSecond: requestsPerSecond * scenario.reportsPerRequest,
      // Of the two processes' p99s, the worse: what a client behind the proxy may see.
      p99Ms: Math.max(...results.map((result) => result.latency.p99)),
      non2xx: results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0),
    };
  } finally {
    await Promise.all(collectors.map((collector) => collector.stop()));
    await database.drop();
  }
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export const postgresIngestBench = async ({ duration = 5, runs = 3 } = {}) => {
  const postgres = await openBenchPostgres();
  const rows = [];
  try {
    for (const scenario of scenarios) {
      for (const processes of [1, 2]) {
        const measured = [];
        for (let run = 0; run < runs; run++) measured.push(await measure(postgres, scenario, processes, duration));
        rows.push({
          scenario: scenario.name,
          store: `PostgreSQL, ${processes} process${processes > 1 ? 'es' : ''}`,
          runs,
          requestsPerSecond: median(measured.map((row) => row.requestsPerSecond)),
          reportsPerSecond: median(measured.map((row) => row.reportsPerSecond)),
          p99Ms: median(measured.map((row) => row.p99Ms)),
          non2xx: measured.reduce((sum, row) => sum + row.non2xx, 0),
        });
      }
    }
  } finally {
    postgres.stop();
  }
  return rows;
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await postgresIngestBench({ duration: Number(process.env.BENCH_DURATION || 5), runs: Number(process.env.BENCH_RUNS || 3) });
  console.table(rows);
}
