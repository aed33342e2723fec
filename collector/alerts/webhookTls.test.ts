import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeTestCertificates } from '../check/testing/testCertificates';
import type { Alert } from '../core/alerts/alert';
import { sendWebhook } from './sendWebhook';

const alert: Alert = {
  id: 'al_tls',
  kind: 'regression',
  site: { key: 'shop', name: 'Shop' },
  issue: { fingerprint: 'ab12', title: 'RangeError: bad' },
  url: 'https://beacon.shop.example/sites/shop/errors/ab12',
  created_at: '2026-11-27T19:00:00.000Z',
};

const dir = mkdtempSync(join(tmpdir(), 'alert-tls-'));
let certificates: ReturnType<typeof makeTestCertificates>;
const servers: Server[] = [];
const hosts: string[] = [];

beforeAll(() => {
  certificates = makeTestCertificates(dir);
});
afterAll(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

const httpsReceiver = async (pair: { key: string; cert: string }) => {
  const server = createServer({ key: readFileSync(pair.key), cert: readFileSync(pair.cert) }, (request, response) => {
    hosts.push(request.headers.host ?? '');
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
};

// The connection goes to the checked address; TLS still checks the certificate against the URL's name.
describe('sendWebhook over HTTPS, pinned to the checked address', () => {
  const resolve = async () => [{ address: '127.0.0.1', family: 4 }];

  test('a certificate for the URL\'s host name is accepted though the connection is to the checked address', async () => {
    const port = await httpsReceiver(certificates.valid);
    const outcome = await sendWebhook({ url: `https://collector.test:${port}/in`, format: 'discord' }, alert, { allowPrivate: true, resolve, ca: readFileSync(certificates.rootCa) });
    expect(outcome).toEqual({ status: 'sent', code: 204 });
    expect(hosts.at(-1)).toBe(`collector.test:${port}`);
  });

  test('a certificate for another name is refused (and retried: certificates get fixed)', async () => {
    const port = await httpsReceiver(certificates.wrongName);
    const outcome = await sendWebhook({ url: `https://collector.test:${port}/in`, format: 'json' }, alert, { allowPrivate: true, resolve, ca: readFileSync(certificates.rootCa) });
    expect(outcome).toMatchObject({ status: 'retry', error: expect.stringMatching(/^ERR_TLS_CERT_ALTNAME_INVALID/) });
  });

  test('a certificate from a CA not trusted is refused', async () => {
    const port = await httpsReceiver(certificates.valid);
    const outcome = await sendWebhook({ url: `https://collector.test:${port}/in`, format: 'json' }, alert, { allowPrivate: true, resolve });
    expect(outcome).toMatchObject({ status: 'retry', error: expect.stringMatching(/^UNABLE_TO_VERIFY_LEAF_SIGNATURE|certificate/i) });
  });
});
