// Behind a TLS-terminating proxy (README's nginx block: X-Forwarded-Proto, X-Forwarded-Host), with
// --trust-proxy the collector's own origin is the one the browser used; without it those headers
// are ignored. The collector's public URL here is http://127.0.0.1:8787 (testCollector.ts), as a
// `serve` behind a proxy without --public-url has its listening address.
import { afterEach, expect, test } from 'vitest';
import { createTestCollector } from '../testing/testCollector';

let collector: ReturnType<typeof createTestCollector>;
afterEach(() => collector.close());

const PROXIED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'collect.example', 'x-forwarded-for': '203.0.113.7' };

const signIn = (headers: Record<string, string>) =>
  collector.request('/api/v1/session', {
    method: 'POST',
    body: JSON.stringify({ email: 'ann@shop.example', password: 'correct horse battery' }),
    headers: { 'content-type': 'application/json', ...headers },
  });

test('with trustProxy, a sign-in from the origin the proxy was addressed at is accepted, and its cookie is Secure', async () => {
  collector = createTestCollector({ trustProxy: true });
  await collector.addUser('ann@shop.example', 'correct horse battery');
  const response = await signIn({ origin: 'https://collect.example', ...PROXIED });
  expect(response.status).toBe(204);
  const cookie = response.headers.get('set-cookie')!;
  expect(cookie).toMatch(/;\s*Secure/i);
  // A write made with that cookie passes the CSRF check from the same origin, through the proxy.
  const signOut = await collector.request('/api/v1/session', {
    method: 'DELETE',
    headers: { cookie: cookie.split(';')[0]!, origin: 'https://collect.example', ...PROXIED },
  });
  expect(signOut.status).toBe(204);
});

test('with trustProxy, another origin is still refused (403 csrf), and X-Forwarded-Proto alone makes the own origin https', async () => {
  collector = createTestCollector({ trustProxy: true });
  await collector.addUser('ann@shop.example', 'correct horse battery');
  expect((await signIn({ origin: 'https://evil.example', ...PROXIED })).status).toBe(403);
  // Host: collector.test (the request's own), scheme from the proxy.
  expect((await signIn({ origin: 'https://collector.test', 'x-forwarded-proto': 'https' })).status).toBe(204);
  expect((await signIn({ origin: 'http://collector.test', 'x-forwarded-proto': 'https' })).status).toBe(403);
});

test('without trustProxy, X-Forwarded-Proto and X-Forwarded-Host are ignored: that sign-in is 403 csrf, and a cookie over http is not Secure', async () => {
  collector = createTestCollector();
  await collector.addUser('ann@shop.example', 'correct horse battery');
  const refused = await signIn({ origin: 'https://collect.example', ...PROXIED });
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('csrf');
  const plain = await signIn({ origin: 'http://collector.test', 'x-forwarded-proto': 'https' });
  expect(plain.status).toBe(204);
  expect(plain.headers.get('set-cookie')).not.toMatch(/;\s*Secure/i);
});
