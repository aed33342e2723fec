// `sitebeacon serve` run in this process (main(), as the serve thread runs it), over real loopback
// sockets: its connection cap per client.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { main } from '../main';

let dir: string;
let db: string;
const stops: Array<() => Promise<void>> = [];
const sockets: Socket[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-serve-inprocess-'));
  db = join(dir, 'sitebeacon.db');
  // serve's graceful stop ends the process once the store is closed: here it only returns.
  vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const stop of stops.splice(0)) await stop();
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** `serve ARGS --port 0 --db DB --json` in this process; its printed line and its graceful stop. */
const serve = async (args: string[], env: Record<string, string> = {}) => {
  const out: string[] = [];
  const err: string[] = [];
  let graceful: (() => void) | undefined;
  const code = await main(['serve', ...args, '--port', '0', '--db', db, '--json', '--log-level', 'silent'], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env,
    onStop: (stop) => (graceful = stop),
  });
  if (code || !graceful) throw new Error(`serve exited ${code}: ${err.join('\n')}`);
  const exited = vi.mocked(process.exit);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const calls = exited.mock.calls.length;
    graceful!();
    while (exited.mock.calls.length == calls) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  stops.push(stop);
  const printed = JSON.parse(out[0]!) as { url: string; public_url: string; demo_user?: { email: string; password: string } };
  return { ...printed, port: Number(new URL(printed.url).port), stop };
};

/** A connection from `from` that asks for the connectivity check: its answer, or '' once the collector closed it. */
const ask = (port: number, from = '127.0.0.1') =>
  new Promise<string>((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    sockets.push(socket);
    let received = '';
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      received += chunk;
      if (received.includes('"status":"success"')) resolve(received);
    });
    socket.on('close', () => resolve(received));
    socket.write('GET /api/test-connectivity HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  });

test('--max-connections-per-client N: the (N+1)th open connection of one client is closed, another client is answered', async () => {
  const { port } = await serve(['--max-connections-per-client', '2']);
  expect(await ask(port)).toMatch(/^HTTP\/1\.1 200 /);
  expect(await ask(port)).toMatch(/^HTTP\/1\.1 200 /);
  expect(await ask(port)).toBe('');
  expect(await ask(port, '127.0.0.2')).toMatch(/^HTTP\/1\.1 200 /);
});

test('SITEBEACON_MAX_CONNECTIONS_PER_CLIENT sets the cap; with --trust-proxy and no cap given, the proxy is not capped', async () => {
  const capped = await serve([], { SITEBEACON_MAX_CONNECTIONS_PER_CLIENT: '1' });
  expect(await ask(capped.port)).toMatch(/^HTTP\/1\.1 200 /);
  expect(await ask(capped.port)).toBe('');
  const proxied = await serve(['--trust-proxy']);
  const answers = await Promise.all(Array.from({ length: 70 }, () => ask(proxied.port)));
  expect(answers.every((answer) => answer.startsWith('HTTP/1.1 200 '))).toBe(true);
});

test.each([['-1'], ['many'], ['1.5']])('--max-connections-per-client %s is a usage error', async (value) => {
  const err: string[] = [];
  const code = await main(['serve', `--max-connections-per-client=${value}`, '--db', db], { out: () => {}, err: (line) => err.push(line), env: {} });
  expect(code).toBe(2);
  expect(err.join('\n')).toContain(`--max-connections-per-client ${value} is not a number of connections`);
});
