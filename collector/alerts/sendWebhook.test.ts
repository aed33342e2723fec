import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import type { Alert } from '../core/alerts/alert';
import { verifyWebhook } from '../core/alerts/signature';
import { sendWebhook } from './sendWebhook';

const alert: Alert = {
  id: 'al_42',
  kind: 'new_issue',
  site: { key: 'shop', name: 'Shop' },
  issue: { fingerprint: 'ab12', title: 'TypeError: x is undefined <b>' },
  url: 'https://beacon.shop.example/sites/shop/errors/ab12',
  created_at: '2026-11-27T19:00:00.000Z',
};

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A real HTTP receiver on 127.0.0.1: what it received, and its URL. */
const receiver = async (answer: (request: IncomingMessage, response: ServerResponse) => void) => {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(request, response);
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { received, port, url: `http://127.0.0.1:${port}/hooks/in?x=1` };
};

describe('sendWebhook, to real receivers', () => {
  test('a receiver gets the signed JSON body and verifies it with verifyWebhook', async () => {
    const hook = await receiver((_, response) => response.writeHead(204).end());
    const outcome = await sendWebhook({ url: hook.url, format: 'json', secret: 's3cret' }, alert, { allowPrivate: true });
    expect(outcome).toEqual({ status: 'sent', code: 204 });
    const [{ headers, body }] = hook.received as [Received];
    expect(headers['sitebeacon-delivery']).toBe('al_42');
    expect(headers['content-type']).toBe('application/json');
    const verdict = verifyWebhook('s3cret', { timestamp: headers['sitebeacon-timestamp'] as string, signature: headers['sitebeacon-signature'] as string, body });
    expect(verdict).toEqual({ ok: true });
    expect(verifyWebhook('wrong', { timestamp: headers['sitebeacon-timestamp'] as string, signature: headers['sitebeacon-signature'] as string, body })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(JSON.parse(body)).toEqual(alert);
  });

  test('the Slack format posts Slack\'s payload; no secret, no signature', async () => {
    const hook = await receiver((_, response) => response.writeHead(200).end('ok'));
    expect(await sendWebhook({ url: hook.url, format: 'slack' }, alert, { allowPrivate: true })).toEqual({ status: 'sent', code: 200 });
    const [{ headers, body }] = hook.received as [Received];
    expect(headers['sitebeacon-signature']).toBeUndefined();
    expect(JSON.parse(body).text).toContain('TypeError: x is undefined &lt;b&gt;');
  });

  test('a 500 is retried, with the answer\'s first line, read bounded', async () => {
    const hook = await receiver((_, response) => response.writeHead(500).end('database down\n' + 'x'.repeat(1_000_000)));
    const outcome = await sendWebhook({ url: hook.url, format: 'json' }, alert, { allowPrivate: true });
    expect(outcome).toMatchObject({ status: 'retry', code: 500 });
    expect(outcome.status != 'sent' && outcome.error).toMatch(/^HTTP 500: database down x+…$/);
    expect(outcome.status != 'sent' && outcome.error.length).toBeLessThanOrEqual(300);
  });

  test('a 429 is retried, with its Retry-After', async () => {
    const hook = await receiver((_, response) => response.writeHead(429, { 'Retry-After': '120' }).end());
    expect(await sendWebhook({ url: hook.url, format: 'json' }, alert, { allowPrivate: true })).toMatchObject({ status: 'retry', code: 429, retryAfterSeconds: 120 });
  });

  test('a 404 fails: trying again would be refused again', async () => {
    const hook = await receiver((_, response) => response.writeHead(404).end('no such hook'));
    expect(await sendWebhook({ url: hook.url, format: 'json' }, alert, { allowPrivate: true })).toEqual({ status: 'fail', error: 'HTTP 404: no such hook', code: 404 });
  });

  test('a receiver slower than the timeout is retried', async () => {
    const hook = await receiver(() => undefined);
    const started = performance.now();
    const outcome = await sendWebhook({ url: hook.url, format: 'json' }, alert, { allowPrivate: true, timeoutMs: 300 });
    expect(outcome).toEqual({ status: 'retry', error: 'timed out after 0.3 s' });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(hook.received).toHaveLength(1);
  });

  test('a redirect is not followed, and fails', async () => {
    const elsewhere = await receiver((_, response) => response.writeHead(204).end());
    const hook = await receiver((_, response) => response.writeHead(302, { Location: elsewhere.url }).end());
    const outcome = await sendWebhook({ url: hook.url, format: 'json' }, alert, { allowPrivate: true });
    expect(outcome).toEqual({ status: 'fail', error: `HTTP 302: redirect to ${elsewhere.url} not followed`, code: 302 });
    expect(elsewhere.received).toEqual([]);
  });

  test('a refused connection is retried', async () => {
    const hook = await receiver(() => undefined);
    servers.pop()!.close();
    const outcome = await sendWebhook({ url: hook.url, format: 'json' }, alert, { allowPrivate: true });
    expect(outcome).toMatchObject({ status: 'retry', error: expect.stringMatching(/^ECONNREFUSED/) });
  });
});

describe('sendWebhook refuses private targets', () => {
  test('a host name resolving to 127.0.0.1 is refused without allowPrivate, and nothing is sent', async () => {
    const hook = await receiver((_, response) => response.writeHead(204).end());
    const outcome = await sendWebhook({ url: `http://localhost:${hook.port}/in`, format: 'json' }, alert);
    expect(outcome).toMatchObject({ status: 'fail', error: expect.stringMatching(/^refused target: localhost resolves to (127\.0\.0\.1|::1) \(loopback\)/) });
    expect(hook.received).toEqual([]);
  });

  test.each(['http://127.0.0.1:9/', 'http://[::ffff:127.0.0.1]:9/', 'http://[::1]:9/', 'http://169.254.169.254/latest/meta-data', 'http://0x7f.1:9/', 'http://10.0.0.1/'])(
    '%s is refused',
    async (url) => {
      expect(await sendWebhook({ url, format: 'json' }, alert)).toMatchObject({ status: 'fail', error: expect.stringMatching(/^refused target/) });
    },
  );

  test('one private address among public ones is enough to refuse', async () => {
    const resolve = async () => [{ address: '93.184.215.14', family: 4 }, { address: 'fd00::1', family: 6 }];
    expect(await sendWebhook({ url: 'https://hooks.example/in', format: 'json' }, alert, { resolve })).toEqual({
      status: 'fail',
      error: 'refused target: hooks.example resolves to fd00::1 (unique-local); serve --allow-private-webhooks allows it',
    });
  });

  test('the connection goes to the address that was checked, the host name kept in Host', async () => {
    const hook = await receiver((_, response) => response.writeHead(204).end());
    let lookups = 0;
    const resolve = async () => (lookups++ ? [{ address: '10.9.9.9', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
    const outcome = await sendWebhook({ url: `http://hooks.test:${hook.port}/in`, format: 'json' }, alert, { allowPrivate: true, resolve });
    expect(outcome).toEqual({ status: 'sent', code: 204 });
    expect(lookups).toBe(1);
    expect(hook.received[0]!.headers.host).toBe(`hooks.test:${hook.port}`);
  });

  test('a URL that is not http(s) fails', async () => {
    expect(await sendWebhook({ url: 'file:///etc/passwd', format: 'json' }, alert)).toMatchObject({ status: 'fail', error: 'a webhook URL is http or https, not file:' });
    expect(await sendWebhook({ url: 'not a url', format: 'json' }, alert)).toMatchObject({ status: 'fail' });
  });
});
