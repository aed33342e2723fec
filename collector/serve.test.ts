// The collector as a process: TLS, a crash with SIGKILL, and a graceful SIGTERM. Needs `npm run build`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { runCli, selfSignedCertificate, spawnCollector, type CollectorProcess } from './spawnCollector';

let dir: string;
let db: string;
let running: CollectorProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-serve-'));
  db = join(dir, 'sitebeacon.db');
});
afterEach(async () => {
  await Promise.all(running.map((collector) => collector.stop('SIGKILL')));
  running = [];
  rmSync(dir, { recursive: true, force: true });
});
const start = async (args: string[] = []) => {
  const collector = await spawnCollector({ db, args: ['--rate-limit', '0', '--site-rate-limit', '0', ...args] });
  running.push(collector);
  return collector;
};
const storedMessages = () =>
  runCli(db, 'export', '--site', 'default', '--kind', 'errors')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { error_message: string }).error_message);

test('--tls-cert and --tls-key serve HTTPS that verifies against the certificate', async () => {
  const { cert, key } = selfSignedCertificate(dir);
  const collector = await start(['--tls-cert', cert, '--tls-key', key]);
  expect(collector.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const body = await new Promise<string>((resolve, reject) => {
    httpsRequest(`${collector.url}/api/test-connectivity`, { ca: readFileSync(cert) }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve(text));
    })
      .on('error', reject)
      .end();
  });
  expect(JSON.parse(body)).toEqual({ status: 'success' });
});

test('after SIGKILL in the middle of a stream of submissions, every report answered 2xx is stored', async () => {
  let collector = await start();
  const acknowledged = new Set<string>();
  const attempted = new Set<string>();
  let stopped = false;
  const stream = async (worker: number) => {
    for (let i = 0; !stopped; i++) {
      const message = `w${worker}-${i}`;
      attempted.add(message);
      try {
        const response = await fetch(`${collector.url}/api/error-reports`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ error_type: 'js', error_message: message }),
        });
        if (response.status == 202) acknowledged.add(message);
      } catch {
        return; // the process is gone
      }
    }
  };
  const workers = Array.from({ length: 8 }, (_, worker) => stream(worker));
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await collector.stop('SIGKILL');
  stopped = true;
  await Promise.all(workers);
  expect(acknowledged.size).toBeGreaterThan(50);

  collector = await start();
  const stored = new Set(storedMessages());
  const lost = [...acknowledged].filter((message) => !stored.has(message));
  expect(lost).toEqual([]);
  // Nothing is stored that was never sent.
  expect([...stored].filter((message) => !attempted.has(message))).toEqual([]);
});

test('SIGTERM lets a request in flight finish and commit, then exits 0', async () => {
  const collector = await start();
  const { port } = collector;
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/error-reports', headers: { 'content-type': 'application/json' } }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.on('error', reject);
    // Half the body now, the rest after SIGTERM.
    request.write('{"error_type":"js",');
    setTimeout(() => {
      collector.child.kill('SIGTERM');
      setTimeout(() => request.end('"error_message":"in flight at shutdown"}'), 300);
    }, 300);
  });
  expect(await answered).toEqual({ status: 202, body: '{"status":"accepted","accepted":1}' });
  expect(await collector.stop()).toBe(0);
  expect(storedMessages()).toEqual(['in flight at shutdown']);
});
