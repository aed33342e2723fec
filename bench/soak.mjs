// The soak: mixed traffic against one `sitebeacon serve` process for SOAK_SECONDS
// (default 300): valid error and CSP reports, invalid JSON, oversize bodies, and slow clients that
// never finish their body. It checks that memory stays bounded, that slow clients are cut off
// without holding the server, and that every acknowledged report, and nothing else, is stored.
// Loopback only; exits 1 when a check fails.  node bench/soak.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorReport } from './ingest.mjs';
import { CLI, serveArgs, startServer } from './startServer.mjs';

const SECONDS = Number(process.env.SOAK_SECONDS || 300);
const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-soak-'));
const db = join(dir, 'soak.db');

const { url, child } = await startServer(serveArgs(db, '--log-level', 'error'));
const port = Number(new URL(url).port);
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;

const stats = { sent: {}, statuses: {}, acknowledgedErrors: new Set(), acknowledgedCsp: 0, slowClients: 0, slowClosedWithinMs: [], failures: [] };
const count = (kind, status) => {
  stats.sent[kind] = (stats.sent[kind] ?? 0) + 1;
  const key = `${kind} ${status}`;
  stats.statuses[key] = (stats.statuses[key] ?? 0) + 1;
};
const post = (path, body, type = 'application/json') =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': type }, body }).then(async (response) => ({ status: response.status, body: await response.text() }));

const deadline = Date.now() + SECONDS * 1000;
let serial = 0;
const loops = {
  async errors() {
    const message = `soak ${serial++}`;
    const { status } = await post('/api/error-reports', JSON.stringify({ ...errorReport(), error_message: message }));
    count('error', status);
    if (status == 202) stats.acknowledgedErrors.add(message);
  },
  async csp() {
    const body = JSON.stringify([{ type: 'csp-violation', url: 'https://shop.example/', body: { documentURL: 'https://shop.example/', effectiveDirective: 'img-src', blockedURL: `https://cdn.example/${serial++}` } }]);
    const { status } = await post('/api/csp-reports', body, 'application/reports+json');
    count('csp', status);
    if (status == 202) stats.acknowledgedCsp++;
  },
  async invalid() {
    const { status } = await post('/api/error-reports', '{"error_type": "js", "error_message": ');
    count('invalid', status);
    if (status != 400) stats.failures.push(`invalid JSON answered ${status}`);
  },
  async oversize() {
    const { status } = await post('/api/error-reports', JSON.stringify({ ...errorReport(), stack: 'x'.repeat(70_000) }));
    count('oversize', status);
    if (status != 413) stats.failures.push(`oversize answered ${status}`);
  },
  async slow() {
    // Headers and half a body, then nothing: the server must hang up (request timeout), not wait for ever.
    stats.slowClients++;
    const started = Date.now();
    await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`POST /api/error-reports HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"error_type":`);
      });
      const giveUp = setTimeout(() => {
        stats.failures.push(`a slow client was still connected after 30 s (${socket.bytesRead} bytes read)`);
        socket.destroy();
        resolve();
      }, 30_000);
      let finished = false;
      const cutOff = () => {
        if (finished) return;
        finished = true;
        clearTimeout(giveUp);
        stats.slowClosedWithinMs.push(Date.now() - started);
        socket.destroy();
        resolve();
      };
      // The server answers 408 Request Timeout and hangs up.
      socket.on('data', (chunk) => String(chunk).startsWith('HTTP/1.1 408') && cutOff());
      socket.on('close', cutOff);
      socket.on('error', () => {});
    });
  },
};
const weights = { errors: 6, csp: 3, invalid: 2, oversize: 1, slow: 1 };

const memory = [];
const sampler = setInterval(() => memory.push(rssMb()), 5000);
const workers = Object.entries(weights).flatMap(([name, concurrency]) =>
  Array.from({ length: concurrency }, async () => {
    while (Date.now() < deadline) {
      try {
        await loops[name]();
      } catch (error) {
        stats.failures.push(`${name}: ${error.message}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }),
);
await Promise.all(workers);
clearInterval(sampler);

// Graceful stop, then read what is stored.
await new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')));
const stored = (kind) => execFileSync(process.execPath, [CLI, 'export', '--site', 'default', '--kind', kind, '--db', db], { encoding: 'utf8', maxBuffer: 1 << 30 }).split('\n').filter(Boolean).map((line) => JSON.parse(line));
const storedErrors = new Set(stored('errors').map((record) => record.error_message));
const storedCsp = stored('csp').length;
const lostErrors = [...stats.acknowledgedErrors].filter((message) => !storedErrors.has(message)).length;
const unacknowledgedStored = [...storedErrors].filter((message) => !stats.acknowledgedErrors.has(message)).length;

const warm = memory.slice(2);
const result = {
  seconds: SECONDS,
  sent: stats.sent,
  statuses: stats.statuses,
  errors: { acknowledged: stats.acknowledgedErrors.size, stored: storedErrors.size, lost: lostErrors, storedWithoutAck: unacknowledgedStored },
  csp: { acknowledged: stats.acknowledgedCsp, stored: storedCsp },
  slowClients: { started: stats.slowClients, closedByServer: stats.slowClosedWithinMs.length, maxSecondsToClose: Math.max(0, ...stats.slowClosedWithinMs) / 1000 },
  rssMb: { first: memory[0], min: Math.min(...warm), max: Math.max(...warm), last: memory.at(-1) },
  failures: [...new Set(stats.failures)].slice(0, 10),
};
console.log(JSON.stringify(result, null, 2));
rmSync(dir, { recursive: true, force: true });

const ok =
  lostErrors == 0 &&
  unacknowledgedStored == 0 &&
  storedCsp == stats.acknowledgedCsp &&
  stats.failures.length == 0 &&
  stats.slowClosedWithinMs.length == stats.slowClients &&
  // Bounded: after warm-up, memory grows by no more than SQLite's page caches (16 + 4 MiB, filling
  // as the file grows: collector/store/sqlite.ts) plus 32 MiB of slack; 64 are allowed.
  (warm.length < 2 || result.rssMb.max <= result.rssMb.min + 64 + 32);
console.log(ok ? 'soak: all checks passed' : 'soak: FAILED');
process.exit(ok ? 0 : 1);
