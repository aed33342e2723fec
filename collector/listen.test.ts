// listen()'s bounds on connections (README, "Security": limits), with real sockets on loopback:
// headers within the bound from the accept, idle keep-alive connections closed, a cap per client.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as connectTcp, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as connectTls } from 'node:tls';
import { afterEach, expect, test } from 'vitest';
import { DEFAULT_MAX_CONNECTIONS_PER_CLIENT, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, listen, type ListenOptions } from './listen';
import { selfSignedCertificate } from './testing/spawnCollector';
import { createTestCollector } from './testing/testCollector';

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A collector served by listen() on 127.0.0.1 with these options; its port. */
const start = async (options: Omit<ListenOptions, 'port' | 'host'> = {}) => {
  const collector = createTestCollector();
  cleanups.push(() => collector.close());
  const { server, url } = await listen(collector.app, { port: 0, host: '127.0.0.1', ...options });
  cleanups.push(() => server.close(true));
  return { port: Number(new URL(url).port), server };
};

/** A connection, watched: everything received, and when (ms after the connect) it was closed. */
const open = (port: number, { from, tls }: { from?: string; tls?: boolean } = {}) => {
  const started = Date.now();
  const socket: Socket = tls
    ? connectTls({ port, host: '127.0.0.1', rejectUnauthorized: false, ...(from ? { localAddress: from } : {}) })
    : connectTcp({ port, host: '127.0.0.1', ...(from ? { localAddress: from } : {}) });
  cleanups.push(() => void socket.destroy());
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
  const ready = new Promise<void>((resolve) => socket.once(tls ? 'secureConnect' : 'connect', () => resolve()));
  return {
    socket,
    started,
    ready,
    closed,
    received: () => received,
    /** Sends a GET of the health check and resolves once its answer has arrived. */
    get: async () => {
      const before = received.length;
      socket.write('GET /api/test-connectivity HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      for (const until = Date.now() + 3000; !received.slice(before).includes('"status":"success"') && Date.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return received.slice(before);
    },
  };
};

/** Resolves to the connection's close time, or to -1 once `ms` have passed with it still open. */
const closedWithin = (connection: { closed: Promise<number> }, ms: number) =>
  Promise.race([connection.closed, new Promise<number>((resolve) => setTimeout(() => resolve(-1), ms))]);

test('the defaults: headers within 10 s, idle keep-alive connections closed after 5 s, 64 connections per client', async () => {
  expect(HEADERS_TIMEOUT_MS).toBe(10_000);
  expect(KEEP_ALIVE_TIMEOUT_MS).toBe(5_000);
  expect(DEFAULT_MAX_CONNECTIONS_PER_CLIENT).toBe(64);
  const { server } = await start();
  const node = server.node!.server! as unknown as { headersTimeout: number; requestTimeout: number; keepAliveTimeout: number };
  expect(node).toMatchObject({ headersTimeout: 10_000, requestTimeout: 10_000, keepAliveTimeout: 5_000 });
});

test('with the default bound, a connection that sends nothing is closed 10 s after the accept, over HTTP and before a TLS handshake', { timeout: 20_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-listen-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const { cert, key } = selfSignedCertificate(dir);
  const plain = await start();
  const secure = await start({ tls: { cert, key } });
  const [silentHttp, silentTls] = [open(plain.port), open(secure.port)];
  const times = await Promise.all([closedWithin(silentHttp, 13_000), closedWithin(silentTls, 13_000)]);
  for (const ms of times) {
    expect(ms).toBeGreaterThan(9_000);
    expect(ms).toBeLessThan(12_000);
  }
});

test('a connection that sends nothing, or only "G", is closed within the headers bound (the "G" with 408)', async () => {
  const { port } = await start({ headersTimeoutMs: 600 });
  const silent = open(port);
  const partial = open(port);
  await partial.ready;
  partial.socket.write('G');
  const times = await Promise.all([closedWithin(silent, 3000), closedWithin(partial, 3000)]);
  for (const ms of times) {
    expect(ms).toBeGreaterThan(400);
    expect(ms).toBeLessThan(1_800);
  }
  expect(silent.received()).toBe('');
  expect(partial.received()).toMatch(/^HTTP\/1\.1 408 /);
});

test('over TLS, a connection that never starts the handshake, or stops after it, is closed within the headers bound', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-listen-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const { port } = await start({ tls: selfSignedCertificate(dir), headersTimeoutMs: 600 });
  const raw = open(port);
  const handshaken = open(port, { tls: true });
  await handshaken.ready;
  handshaken.socket.write('G');
  for (const ms of await Promise.all([closedWithin(raw, 3000), closedWithin(handshaken, 3000)])) {
    expect(ms).toBeGreaterThan(400);
    expect(ms).toBeLessThan(1_800);
  }
});

test('an idle keep-alive connection is closed after the keep-alive timeout; one in use stays open past the headers bound', async () => {
  const { port } = await start({ headersTimeoutMs: 400, keepAliveTimeoutMs: 500 });
  const idle = open(port);
  const busy = open(port);
  expect(await idle.get()).toMatch(/^HTTP\/1\.1 200 /);
  const answered = Date.now();
  // Requests every 150 ms for 1.2 s: well past the headers bound counted from the accept.
  for (let i = 0; i < 8; i++) {
    expect(await busy.get()).toMatch(/^HTTP\/1\.1 200 /);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  const idleClosed = await closedWithin(idle, 3000);
  expect(idleClosed).toBeGreaterThan(0);
  const idleFor = idle.started + idleClosed - answered;
  expect(idleFor).toBeGreaterThan(400);
  expect(idleFor).toBeLessThan(1_800);
  expect(await closedWithin(busy, 0)).toBe(-1);
  expect(await closedWithin(busy, 2500)).toBeGreaterThan(0);
});

test('the (N+1)th open connection of one client is closed at once, while another client is answered', async () => {
  const { port } = await start({ maxConnectionsPerClient: 3 });
  const held = [open(port), open(port), open(port)];
  await Promise.all(held.map((connection) => connection.ready));
  for (const connection of held) expect(await connection.get()).toMatch(/^HTTP\/1\.1 200 /);
  const refused = open(port);
  refused.socket.write('GET /api/test-connectivity HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  expect(await closedWithin(refused, 1000)).toBeGreaterThanOrEqual(0);
  expect(refused.received()).toBe('');
  const other = open(port, { from: '127.0.0.2' });
  expect(await other.get()).toMatch(/^HTTP\/1\.1 200 /);
  // One of the client's connections closes: it may open another.
  held[0]!.socket.destroy();
  await held[0]!.closed;
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await open(port).get()).toMatch(/^HTTP\/1\.1 200 /);
});

test('maxConnectionsPerClient 0 turns the cap off', async () => {
  const { port } = await start({ maxConnectionsPerClient: 0 });
  const connections = Array.from({ length: 80 }, () => open(port));
  await Promise.all(connections.map((connection) => connection.ready));
  expect(await connections[79]!.get()).toMatch(/^HTTP\/1\.1 200 /);
  expect(await closedWithin(connections[0]!, 0)).toBe(-1);
});
