// The browser-side connectivity check's logic against real servers on loopback: a collector, a
// refused port, a listener that never answers, a WAF's 403 challenge page and a JSON server that is
// not a collector. Node's fetch fails the way a browser's does (a TypeError that says nothing);
// the browser-only parts (CORS, this page's CSP, the Origin) are in e2e/connectivityCheck.spec.ts.
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listen } from '../../collector/listen';
import { createTestCollector } from '../../collector/testing/testCollector';
import { runCheck } from './runCheck';

const portOf = (server: Server | TcpServer) => (server.address() as AddressInfo).port;
const started = <T extends Server | TcpServer>(server: T) => new Promise<T>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
const OPTIONS = { submit: true, timeoutMs: 5_000 };

describe('runCheck', () => {
  let collector: ReturnType<typeof createTestCollector>;
  let collectorServer: Awaited<ReturnType<typeof listen>>['server'];
  let api: string;
  let siteKey: string;
  let refusedPort: number;
  const sockets: Socket[] = [];
  let hanging: TcpServer;
  let waf: Server;
  let notCollector: Server;

  beforeAll(async () => {
    collector = createTestCollector();
    siteKey = await collector.addSite(['https://shop.example'], 'Shop');
    const listening = await listen(collector.app, { port: 0, host: '127.0.0.1' });
    collectorServer = listening.server;
    api = `${listening.url}/api`;
    // A port that was just free and is closed again: connections are refused.
    const closed = await started(createServer());
    refusedPort = portOf(closed);
    await new Promise((resolve) => closed.close(resolve));
    hanging = await started(createTcpServer((socket) => sockets.push(socket)));
    waf = await started(
      createServer((_req, res) => {
        res.writeHead(403, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><html><head><title>Attention Required! | Cloudflare</title></head><body>Checking your browser</body></html>');
      }),
    );
    notCollector = await started(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      }),
    );
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    for (const server of [hanging, waf, notCollector]) await new Promise((resolve) => server.close(resolve));
    await collectorServer.close(true);
    await collector.close();
  });

  test('a healthy collector: both hosts answer "success", and the test report is accepted and stored as a connectivity check', async () => {
    const mainApi = api.replace('127.0.0.1', 'localhost');
    const rows = await runCheck({ siteKey, apiBase: api, mainApiBase: mainApi }, { ...OPTIONS, from: 'dash.example' });
    expect(rows.map((row) => [row.id, row.verdict.ok])).toEqual([['ingest', true], ['main', true], ['submission', true]]);
    expect(rows[0]).toMatchObject({ label: 'Ingest host', url: `${api}/test-connectivity` });
    expect(rows[1]).toMatchObject({ label: 'Main host', url: `${mainApi}/test-connectivity` });
    expect(rows[2]!.verdict.summary).toMatch(/^OK: accepted \(HTTP 202\)/);
    expect(await collector.stored('errors', siteKey)).toEqual([
      expect.objectContaining({ error_type: 'connectivity_check', error_message: 'sitebeacon check from the dashboard on dash.example' }),
    ]);
  });

  test('one API base for both hosts is checked once', async () => {
    const rows = await runCheck({ siteKey, apiBase: api, mainApiBase: api }, { ...OPTIONS, submit: false });
    expect(rows).toEqual([expect.objectContaining({ id: 'ingest', label: 'Ingest and main host (one host)', verdict: expect.objectContaining({ ok: true }) })]);
  });

  test('a refused ingest host fails with a network error and what to run; the main host still passes; no report is sent', async () => {
    const ingest = `http://127.0.0.1:${refusedPort}/api`;
    const rows = await runCheck({ siteKey, apiBase: ingest, mainApiBase: api }, OPTIONS);
    expect(rows.map((row) => [row.id, row.verdict.ok])).toEqual([['ingest', false], ['main', true], ['submission', false]]);
    expect(rows[0]!.verdict.summary).toMatch(/^Failed: network error or blocked/);
    expect(rows[0]!.verdict.command).toBe(`sitebeacon check ${ingest}`);
    expect(rows[2]!.verdict.summary).toBe('Not sent: the ingest host did not answer the connectivity check.');
  });

  test('a listener that never answers times out within the time limit', async () => {
    const started = performance.now();
    const rows = await runCheck({ siteKey, apiBase: `http://127.0.0.1:${portOf(hanging)}/api`, mainApiBase: api }, { ...OPTIONS, timeoutMs: 300 });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(rows[0]!.verdict).toMatchObject({ ok: false, summary: 'Failed: timed out, no answer within 300 ms.' });
    expect(rows[0]!.verdict.advice).toMatch(/firewall, a proxy or the routing/);
  });

  test("a WAF's 403 challenge page is named as a proxy or WAF, with the page's title", async () => {
    const rows = await runCheck({ siteKey, apiBase: `http://127.0.0.1:${portOf(waf)}/api`, mainApiBase: api }, OPTIONS);
    expect(rows[0]!.verdict).toMatchObject({
      ok: false,
      summary: 'Failed: HTTP 403, an HTML page titled "Attention Required! | Cloudflare" instead of the collector\'s JSON.',
    });
    expect(rows[0]!.verdict.advice).toMatch(/proxy or web application firewall/);
  });

  test('a JSON server that is not a collector is named so', async () => {
    const rows = await runCheck({ siteKey, apiBase: `http://127.0.0.1:${portOf(notCollector)}/api`, mainApiBase: api }, OPTIONS);
    expect(rows[0]!.verdict.summary).toBe('Failed: HTTP 200, not a sitebeacon collector\'s answer ({"ok":true}).');
  });

  test("the collector's refusal of the test report shows its status and error (unknown site key)", async () => {
    const rows = await runCheck({ siteKey: 'nosuchsite', apiBase: api, mainApiBase: api }, OPTIONS);
    expect(rows[1]!.verdict).toMatchObject({ ok: false, summary: expect.stringMatching(/^Failed: refused with HTTP 404 \(unknown_site: /) });
    expect(rows[1]!.verdict.advice).toMatch(/does not know this site key/);
  });

  test("a request this page's CSP refused, and an offline browser, are named as such", async () => {
    const refused = `http://127.0.0.1:${refusedPort}/api`;
    const blocked = await runCheck({ siteKey, apiBase: refused, mainApiBase: api }, { ...OPTIONS, blockedByPolicy: async (url) => url.startsWith(refused) });
    expect(blocked[0]!.verdict.summary).toBe("Failed: blocked by this page's Content-Security-Policy (connect-src).");
    expect(blocked[1]!.verdict.ok).toBe(true);
    const offline = await runCheck({ siteKey, apiBase: api, mainApiBase: api }, { ...OPTIONS, online: () => false });
    expect(offline[0]!.verdict.summary).toBe('Failed: this browser is offline.');
  });
});
