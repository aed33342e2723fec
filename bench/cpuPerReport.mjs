// CPU time per report (docs/performance.md): the collector process's user + system CPU (all its threads, from
// /proc/PID/stat) divided by the reports it acknowledged, for a fixed number of requests driven by
// autocannon. Unlike requests per second it moves little when other processes share the machine,
// so it is the figure to compare two builds by (A/B, interleaved, several runs). The main (HTTP)
// thread's share is shown too: the SQLite writes run on a thread of their own. Linux only (/proc);
// loopback only; a few seconds per run.
//
//   node bench/cpuPerReport.mjs [--runs 3] [--single 20000] [--batches 2000] [--cli dist/cli.js ...]
//     [--cli ceiling] [--serve-args "--sync full"] [--scenarios single,batch,csp,visitors] [--node-option --cpu-prof]
//
// With several --cli, each run measures every build in turn (A, B, A, B...): a change in the
// machine's load then falls on both. Prints, per build and scenario, the median µs of collector
// CPU per report and per request, reports/s of the run (load-dependent: a caveat, not a figure),
// p99, and the collector's RSS after the run.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { cspBatch, errorReport } from './ingest.mjs';
import { CLI, serveArgs, startServer } from './startServer.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    single: { type: 'string', default: '20000' },
    batches: { type: 'string', default: '2000' },
    cli: { type: 'string', multiple: true },
    'serve-args': { type: 'string', multiple: true },
    scenarios: { type: 'string', default: 'single,batch' },
    connections: { type: 'string', default: '50' },
    json: { type: 'boolean', default: false },
    'node-option': { type: 'string', multiple: true },
  },
});

/** `--cli ceiling`: bench/ceiling.mjs, bare node:http, for the ratio. */
const CEILING = new URL('./ceiling.mjs', import.meta.url).pathname;
/** Node flags for the measured process (a CPU profile: --node-option --cpu-prof --node-option --cpu-prof-dir=DIR). */
const nodeOptions = values['node-option'] ?? [];

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
/** utime + stime of the whole process (every thread), in µs; of its main (HTTP) thread with `mainOnly`. */
const cpuMicros = (pid, mainOnly = false, tid = mainOnly ? pid : undefined) => {
  const stat = readFileSync(tid !== undefined ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
};
/** utime + stime of each thread of the process, in µs, by thread id. */
const threadMicros = (pid) =>
  new Map(
    readdirSync(`/proc/${pid}/task`).map((tid) => {
      try {
        return [tid, cpuMicros(pid, false, tid)];
      } catch {
        return [tid, 0]; // the thread ended
      }
    }),
  );
const statusKb = (pid, name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

const scenarios = {
  single: { path: '/api/error-reports', type: 'application/json', body: JSON.stringify(errorReport()), perRequest: 1, amount: Number(values.single) },
  batch: {
    path: '/api/error-reports',
    type: 'application/json',
    body: JSON.stringify(Array.from({ length: 50 }, (_, i) => errorReport(i))),
    perRequest: 50,
    amount: Number(values.batches),
  },
  csp: { path: '/api/csp-reports', type: 'application/reports+json', body: JSON.stringify(cspBatch(50)), perRequest: 50, amount: Number(values.batches) },
};
// Single reports, each from a new client (its user agent): each a new visitor of its issue's day, as
// most real traffic is, which the issues' per-day visitors insert (docs/issues.md, "The list at a million reports").
let requestNumber = 0;
scenarios.visitors = { ...scenarios.single, vary: (request) => ({ ...request, headers: { ...request.headers, 'user-agent': `Mozilla/5.0 visitor ${requestNumber++}` } }) };

/** autocannon with `amount`; also when its last response came (autocannon ends on its one-second tick). */
const drive = (url, scenario, amount) =>
  new Promise((done, fail) => {
    let lastResponseAt = performance.now();
    const instance = autocannon(
      {
        url: url + scenario.path, connections: Number(values.connections), amount, method: 'POST', headers: { 'content-type': scenario.type }, body: scenario.body,
        ...(scenario.vary ? { requests: [{ setupRequest: scenario.vary }] } : {}),
      },
      (error, result) => (error ? fail(error) : done({ ...result, lastResponseAt })),
    );
    instance.on('response', () => (lastResponseAt = performance.now()));
  });

/** One build, one scenario: a fresh database, a warm-up, then the measured requests. */
const measure = async (cli, scenarioName, extraArgs) => {
  const scenario = scenarios[scenarioName];
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-cpu-'));
  const args = cli == CEILING ? [CEILING] : serveArgs(join(dir, 'cpu.db'), '--log-level', 'silent', ...extraArgs);
  args[0] = cli;
  const server = await startServer([...nodeOptions, ...args]);
  try {
    await drive(server.url, scenario, Math.max(500, scenario.amount / 10));
    const pid = server.child.pid;
    const before = cpuMicros(pid);
    const mainBefore = cpuMicros(pid, true);
    const threadsBefore = threadMicros(pid);
    const started = performance.now();
    const result = await drive(server.url, scenario, scenario.amount);
    const seconds = (result.lastResponseAt - started) / 1000;
    const cpu = cpuMicros(pid) - before;
    const mainCpu = cpuMicros(pid, true) - mainBefore;
    // The busiest thread besides the main one: the SQLite writer thread, when there is one.
    const otherCpu = Math.max(0, ...[...threadMicros(pid)].filter(([tid]) => tid != String(pid)).map(([tid, micros]) => micros - (threadsBefore.get(tid) ?? 0)));
    const ok = result['2xx'];
    return {
      usPerReport: cpu / (ok * scenario.perRequest),
      mainUsPerReport: mainCpu / (ok * scenario.perRequest),
      otherUsPerReport: otherCpu / (ok * scenario.perRequest),
      usPerRequest: cpu / ok,
      reportsPerSecond: (ok * scenario.perRequest) / seconds,
      p99Ms: result.latency.p99,
      failed: result.non2xx + result.errors + result.timeouts,
      rssMb: statusKb(pid, 'VmRSS') / 1024,
      hwmMb: statusKb(pid, 'VmHWM') / 1024,
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const builds = (values.cli?.length ? values.cli : [CLI]).map((cli, index) => ({
  cli: cli == 'ceiling' ? CEILING : resolve(cli),
  serveArgs: (values['serve-args']?.[index] ?? values['serve-args']?.[0] ?? '').split(' ').filter(Boolean),
}));
// The same build with different serve arguments (--serve-args a --serve-args b) is two builds.
if (builds.length == 1 && (values['serve-args']?.length ?? 0) > 1) {
  builds.splice(0, 1, ...values['serve-args'].map((extra) => ({ cli: builds[0].cli, serveArgs: extra.split(' ').filter(Boolean) })));
}
const names = values.scenarios.split(',');
const runs = {};
for (let run = 0; run < Number(values.runs); run++) {
  for (const name of names) {
    for (const build of builds) {
      const label = `${build.cli}${build.serveArgs.length ? ` ${build.serveArgs.join(' ')}` : ''} | ${name}`;
      const result = await measure(build.cli, name, build.serveArgs);
      (runs[label] ??= []).push(result);
      if (!values.json) console.error(`run ${run + 1}: ${label}: ${result.usPerReport.toFixed(1)} µs/report (main thread ${result.mainUsPerReport.toFixed(1)}, busiest other ${result.otherUsPerReport.toFixed(1)}), ${Math.round(result.reportsPerSecond)} reports/s, p99 ${result.p99Ms} ms, failed ${result.failed}`);
    }
  }
}
const table = Object.fromEntries(
  Object.entries(runs).map(([label, results]) => [
    label,
    {
      'µs CPU/report (median)': Number(median(results.map((r) => r.usPerReport)).toFixed(1)),
      // The least disturbed run: on a shared machine other processes only ever add to it.
      'min': Number(Math.min(...results.map((r) => r.usPerReport)).toFixed(1)),
      'µs CPU/request': Number(median(results.map((r) => r.usPerRequest)).toFixed(1)),
      'µs main thread/report': Number(median(results.map((r) => r.mainUsPerReport)).toFixed(1)),
      'main min': Number(Math.min(...results.map((r) => r.mainUsPerReport)).toFixed(1)),
      'µs busiest other thread/report': Number(median(results.map((r) => r.otherUsPerReport)).toFixed(1)),
      'reports/s (load-dependent)': Math.round(median(results.map((r) => r.reportsPerSecond))),
      'p99 ms': median(results.map((r) => r.p99Ms)),
      'RSS MB': Math.round(median(results.map((r) => r.rssMb))),
      failed: results.reduce((sum, r) => sum + r.failed, 0),
    },
  ]),
);
if (values.json) console.log(JSON.stringify({ runs, table }, null, 2));
else console.table(table);
