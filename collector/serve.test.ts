// The collector as a process: TLS, a crash with SIGKILL, and a graceful SIGTERM. Needs `npm run build`.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CLI, exportRecords, runCli, selfSignedCertificate, spawnCollector, type CollectorProcess } from './testing/spawnCollector';

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
const storedMessages = () => exportRecords(db, 'default', 'errors').map((record) => record.error_message as string);

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

test('after SIGKILL in the middle of a stream of submissions, every report answered 2xx is stored', { timeout: 60_000 }, async () => {
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
  // Killed once a stream of acknowledgments is under way (however loaded the machine is), with
  // requests still in flight.
  for (const started = Date.now(); acknowledged.size < 100 && Date.now() - started < 30_000; ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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

test('--sync full: reports are acknowledged after an fsynced commit, and stored', async () => {
  const collector = await start(['--sync', 'full']);
  for (const message of ['first', 'second']) {
    const response = await fetch(`${collector.url}/api/error-reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error_type: 'js', error_message: message }),
    });
    expect(response.status).toBe(202);
  }
  expect(await collector.stop()).toBe(0);
  expect(storedMessages().sort()).toEqual(['first', 'second']);
});

test('a client that ends its sending side right after its body still gets the answer, after the commit', async () => {
  const collector = await start();
  const body = '{"error_type":"js","error_message":"half-closed"}';
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(collector.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    // The whole request, then FIN at once (shutdown(SHUT_WR)): the answer comes after the commit.
    socket.end(`POST /api/error-reports HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  });
  expect(answer).toMatch(/^HTTP\/1\.1 202 /);
  expect(answer).toContain('{"status":"accepted","accepted":1}');
  expect(storedMessages()).toEqual(['half-closed']);
});

test('the WordPress flow over HTTP, with the action queued by the CLI', async () => {
  const collector = await start(['--public-url', 'https://app.example', '--ingest-url', 'https://in.example']);
  const apiKey = (JSON.parse(runCli(db, 'key', 'create', '--json')) as { api_key: string }).api_key;
  const call = async (path: string, body: object) => {
    const response = await fetch(`${collector.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const registered = await call('/api/v1/wordpress/register', { site_url: 'https://wp.example', plugin_version: '1.3.3' });
  expect(registered.status).toBe(201);
  expect(registered.body).toMatchObject({ api_base: 'https://in.example/api', app_url: 'https://app.example', features: { connectivity_check: true } });
  const siteKey = registered.body.site_key as string;

  const queued = JSON.parse(runCli(db, 'action', 'add', '--site', siteKey, '--type', 'update_snippet', '--payload', '{"version":2}', '--json')) as { id: number };
  const checkIn = await call('/api/v1/wordpress/check-in', { site_key: siteKey, plugin_version: '1.3.3' });
  expect(checkIn.body.actions).toEqual([{ id: queued.id, type: 'update_snippet', payload: { version: 2 }, created_at: expect.any(String) }]);
  expect((await call('/api/v1/wordpress/action-results', { site_key: siteKey, results: [{ action_id: queued.id, status: 'failed', message: 'read-only filesystem' }] })).status).toBe(200);
  expect((await call('/api/v1/wordpress/check-in', { site_key: siteKey })).body.actions).toEqual([]);
  expect((await call('/api/v1/wordpress/action-results', { site_key: siteKey, results: [{ action_id: queued.id + 1000, status: 'succeeded' }] })).status).toBe(404);
});

test("--log-level warn: a browser report with Origin: null for a foreign document is answered 204 but logged as a warning (docs/csp-reports.md); the site's own is not", async () => {
  const collector = await start(['--log-level', 'warn']);
  const siteKey = (JSON.parse(runCli(db, 'site', 'add', '--origin', 'https://shop.example', '--json')) as { site_key: string }).site_key;
  const send = (documentUri: string) =>
    fetch(`${collector.url}/api/csp-reports/${siteKey}`, {
      method: 'POST',
      headers: { origin: 'null', 'content-type': 'application/csp-report' },
      body: JSON.stringify({ 'csp-report': { 'document-uri': documentUri, 'violated-directive': 'img-src', 'blocked-uri': 'https://cdn.example/x.png' } }),
    });
  expect((await send('https://shop.example/cart')).status).toBe(202);
  expect((await send('https://evil.example/cart')).status).toBe(204);
  await expect.poll(() => collector.stderr()).toContain('foreign_reports');
  const lines = collector.stderr().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines).toEqual([expect.objectContaining({ level: 'warn', method: 'POST', status: 204, foreign_reports: 1 })]);
  expect(exportRecords(db, siteKey, 'csp').map((record) => record.document_uri)).toEqual(['https://shop.example/cart']);
});

test('serve --demo --port P answers nothing before its own sites exist and it has printed where it listens (a readiness poll, then /demo at once)', async () => {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const output = join(dir, 'stdout.txt');
  // To a file: the child's writes are done before it answers, so what it printed is there to read.
  const child = spawn(process.execPath, [CLI, 'serve', '--demo', '--port', String(port), '--host', '127.0.0.1', '--db', db], {
    stdio: ['ignore', openSync(output, 'w'), 'ignore'],
  });
  try {
    let answered: Response | undefined;
    for (let tries = 0; !answered && tries < 2_000; tries++) {
      answered = await fetch(`http://127.0.0.1:${port}/api/test-connectivity`).catch(() => undefined);
      if (!answered) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(answered?.status).toBe(200);
    const printed = readFileSync(output, 'utf8');
    expect(printed).toContain(`listening on http://127.0.0.1:${port}`);
    expect(printed).toMatch(/demo sign-in: \S+ \/ \S+/);
    expect(await (await fetch(`http://127.0.0.1:${port}/demo`)).text()).toContain('data-site-key="demo"');
  } finally {
    child.kill('SIGKILL');
  }
});
