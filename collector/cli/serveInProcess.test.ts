// `sitebeacon serve` run in this process (main(), as the serve thread runs it), over real loopback
// sockets: its connection cap per client, and the demo user, who exists only while --demo runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { DEMO_USER_EMAIL } from '../core/records';
import { main } from '../main';
import { createSqliteStore } from '../store/sqlite';

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

/** Signs in at `url` (from its own origin): the status, and the cookie to send after. */
const signIn = async (url: string, { email, password }: { email: string; password: string }) => {
  const response = await fetch(`${url}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email, password }),
  });
  return { status: response.status, cookie: response.headers.get('set-cookie')?.split(';')[0] ?? '' };
};
const whoIs = async (url: string, cookie: string) => (await fetch(`${url}/api/v1/session`, { headers: { cookie } })).status;

test('a demo user left by an earlier serve --demo (killed, never stopped) is removed with its sessions by a serve without --demo', async () => {
  const demo = await serve(['--demo']);
  const signedIn = await signIn(demo.url, demo.demo_user!);
  expect(signedIn.status).toBe(204);
  expect(await whoIs(demo.url, signedIn.cookie)).toBe(200);
  // The --demo run is still going (as if killed: it never got to stop) when one without it starts.
  const plain = await serve([]);
  expect((await signIn(plain.url, demo.demo_user!)).status).toBe(401);
  expect(await whoIs(plain.url, signedIn.cookie)).toBe(401);
});

test('a serve --demo removes its demo user when it stops; the next --demo start ends the sessions of the one before', async () => {
  const first = await serve(['--demo']);
  const firstSession = await signIn(first.url, first.demo_user!);
  expect(firstSession.status).toBe(204);
  const second = await serve(['--demo']);
  expect(second.demo_user!.password).not.toBe(first.demo_user!.password);
  expect(await whoIs(second.url, firstSession.cookie)).toBe(401);
  expect((await signIn(second.url, first.demo_user!)).status).toBe(401);
  expect((await signIn(second.url, second.demo_user!)).status).toBe(204);
  await second.stop();
  await first.stop();
  const store = createSqliteStore({ file: db });
  try {
    expect(await store.users.findByEmail(DEMO_USER_EMAIL)).toBeUndefined();
  } finally {
    await store.close();
  }
});
