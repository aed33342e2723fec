// `Expect: 100-continue` against a real `sitebeacon serve` (needs `npm run build`): a request the
// collector refuses from its headers alone is answered before its body is invited
// (docs/hostile-input.md, "Floods"); one it accepts gets `100 Continue`, then its answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { exportRecords, spawnCollector, type CollectorProcess } from '../testing/spawnCollector';

// A real process on a machine shared with other work: generous time.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let dir: string;
let db: string;
let collector: CollectorProcess;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-expect-'));
  db = join(dir, 'sitebeacon.db');
  collector = await spawnCollector({ db, args: ['--rate-limit', '0', '--site-rate-limit', '0', '--log-level', 'silent'] });
});
afterAll(async () => {
  await collector?.stop('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Sends the request head, then waits: the body (if any) goes only after `100 Continue`. Resolves
 * with everything the collector sent until it closed the connection or 2 s passed.
 */
const exchange = (head: string, body?: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(collector.port, '127.0.0.1');
    let received = '';
    const done = () => {
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(done, 2000);
    socket.on('data', (chunk) => {
      received += chunk;
      if (body !== undefined && received.startsWith('HTTP/1.1 100 Continue\r\n\r\n') && !socket.writableEnded) socket.end(body);
    });
    socket.on('close', () => (clearTimeout(timer), done()));
    socket.on('error', reject);
    socket.write(`${head.trim().split('\n').map((line) => line.trim()).join('\r\n')}\r\nHost: 127.0.0.1\r\n\r\n`);
  });

test('a Content-Length over the limit: 413 at once, no 100 Continue, the connection closed', async () => {
  const answer = await exchange(`POST /api/error-reports HTTP/1.1
    Content-Type: application/json
    Content-Length: 10000000
    Expect: 100-continue`, 'x'.repeat(100));
  expect(answer).not.toContain('100 Continue');
  expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  expect(answer).toContain('"code":"payload_too_large"');
  expect(answer.toLowerCase()).toContain('connection: close');
});

test('no key for an authenticated endpoint: 401 without inviting the body', async () => {
  const answer = await exchange(`POST /api/v1/wordpress/register HTTP/1.1
    Content-Type: application/json
    Content-Length: 40
    Expect: 100-continue`, '{"site_url":"https://wp.example/"}      ');
  expect(answer).not.toContain('100 Continue');
  expect(answer).toMatch(/^HTTP\/1\.1 401 /);
});

test('an acceptable request: 100 Continue, then the body, then 202 and the report stored', async () => {
  const body = '{"error_type":"js","error_message":"sent after 100 Continue"}';
  const answer = await exchange(`POST /api/error-reports HTTP/1.1
    Content-Type: application/json
    Content-Length: ${body.length}
    Expect: 100-continue`, body);
  expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 202 /);
  expect(exportRecords(db, 'default', 'errors').map((record) => record.error_message)).toContain('sent after 100 Continue');
});

test('another expectation: 417', async () => {
  const answer = await exchange(`POST /api/error-reports HTTP/1.1
    Content-Type: application/json
    Content-Length: 2
    Expect: something-else`);
  expect(answer).toMatch(/^HTTP\/1\.1 417 /);
});
