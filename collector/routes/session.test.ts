import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { decoyPasswordHash } from '../core/passwords';
import { hashSessionToken } from '../core/sessions';
import { createTestCollector } from '../testing/testCollector';

// Every sign-in runs scrypt (~100 ms, more on a loaded machine): these tests get 30 s.
describe('sign-in, sessions and the read API with the cookie', { timeout: 30_000 }, () => {
  let collector: ReturnType<typeof createTestCollector>;
  let shop: string;
  let blog: string;
  const OWN = 'http://collector.test';
  const signIn = (email: string, password: string, headers: Record<string, string> = { origin: OWN }) =>
    collector.request('/api/v1/session', {
      method: 'POST',
      body: JSON.stringify({ email, password }),
      headers: { 'content-type': 'application/json', ...headers },
    });

  beforeEach(async () => {
    collector = createTestCollector();
    shop = await collector.addSite(['https://shop.example'], 'Shop');
    blog = await collector.addSite(['https://blog.example'], 'Blog');
    await collector.addUser('ann@shop.example', 'ann-password-1', [shop]);
    await collector.addUser('root@shop.example', 'root-password-1');
  }, 30_000);
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    await collector.close();
  });

  test('a right password sets an HttpOnly, SameSite=Strict session cookie whose token is stored only as a hash', async () => {
    const response = await signIn(' Ann@Shop.Example', 'ann-password-1');
    expect(response.status).toBe(204);
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^sitebeacon_session=[\w-]{43};/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
    const token = /=([\w-]{43})/.exec(cookie)![1]!;
    expect(await collector.store.sessions.findUser(hashSessionToken(token), Date.now())).toMatchObject({ email: 'ann@shop.example' });
    const me = await collector.request('/api/v1/session', { headers: { cookie: `sitebeacon_session=${token}` } });
    expect(await me.json()).toEqual({ email: 'ann@shop.example', site_keys: [shop] });
  });

  test('the cookie is Secure when the request came over HTTPS', async () => {
    const response = await collector.app.fetch(
      new Request('https://collector.test/api/v1/session', {
        method: 'POST',
        body: JSON.stringify({ email: 'ann@shop.example', password: 'ann-password-1' }),
        headers: { 'content-type': 'application/json', origin: 'https://collector.test' },
      }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toMatch(/; Secure/i);
  });

  test('a wrong password and an unknown email get the same 401 invalid_credentials, in about the same time', async () => {
    await decoyPasswordHash(); // made once per process: not part of what a request costs
    const times: Record<string, number[]> = { known: [], unknown: [] };
    const bodies = new Set<string>();
    for (let round = 0; round < 3; round++) {
      for (const [name, email] of [['known', 'ann@shop.example'], ['unknown', 'nobody@shop.example']] as const) {
        const started = performance.now();
        const response = await signIn(email, 'wrong-password');
        times[name]!.push(performance.now() - started);
        expect(response.status).toBe(401);
        expect(response.headers.get('set-cookie')).toBeNull();
        bodies.add(await response.text());
      }
    }
    expect(bodies.size).toBe(1);
    expect(JSON.parse([...bodies][0]!)).toMatchObject({ error: { code: 'invalid_credentials' } });
    // Both ran scrypt: neither answer is several times faster than the other (medians of 3).
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[1]!;
    expect(median(times.unknown!) / median(times.known!)).toBeGreaterThan(0.3);
    expect(median(times.known!) / median(times.unknown!)).toBeGreaterThan(0.3);
  });

  test('10 failures in a minute for an email are answered 429 with Retry-After, even with the right password after', async () => {
    for (let i = 0; i < 10; i++) expect((await signIn('ann@shop.example', `wrong-${i}`, { origin: OWN, 'x-forwarded-for': `10.0.0.${i}` })).status).toBe(401);
    const blocked = await signIn('ann@shop.example', 'ann-password-1');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await blocked.json()).toMatchObject({ error: { code: 'rate_limited' } });
    // Without --trust-proxy every attempt came from one address, which is now blocked for every email.
    expect((await signIn('root@shop.example', 'root-password-1')).status).toBe(429);
  });

  test('10 failures from one address block it for every email', async () => {
    const perIp = createTestCollector({ trustProxy: true });
    try {
      await perIp.addUser('x@shop.example', 'x-password-12');
      const attempt = (email: string, ip: string) =>
        perIp.request('/api/v1/session', {
          method: 'POST',
          body: JSON.stringify({ email, password: 'x-password-12' }),
          headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        });
      for (let i = 0; i < 10; i++) expect((await attempt(`guess${i}@shop.example`, '203.0.113.9')).status).toBe(401);
      expect((await attempt('x@shop.example', '203.0.113.9')).status).toBe(429);
      expect((await attempt('x@shop.example', '203.0.113.10')).status).toBe(204);
    } finally {
      await perIp.close();
    }
  });

  test('a sign-in form on another origin is refused (login CSRF)', async () => {
    const response = await signIn('ann@shop.example', 'ann-password-1', { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'csrf' } });
  });

  test('the read API takes the cookie with the user’s scope: 403 for another site, 401 signed out or after sign-out', async () => {
    const cookie = await collector.signIn('ann@shop.example', 'ann-password-1');
    const get = (path: string, headers: Record<string, string> = { cookie }) => collector.request(path, { headers });
    expect((await get(`/api/v1/sites/${shop}/summary`)).status).toBe(200);
    for (const path of [`/api/v1/sites/${blog}/summary`, `/api/v1/sites/${blog}/error-reports`, '/api/v1/sites/no-such-site/summary']) {
      const response = await get(path);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code: 'forbidden' } });
    }
    expect((await get(`/api/v1/sites/${shop}/summary`, {})).status).toBe(401);
    expect((await get(`/api/v1/sites/${shop}/summary`, { cookie: 'sitebeacon_session=forged' })).status).toBe(401);
    const root = await collector.signIn('root@shop.example', 'root-password-1');
    expect((await get(`/api/v1/sites/${blog}/summary`, { cookie: root })).status).toBe(200);
    expect((await get('/api/v1/sites/no-such-site/summary', { cookie: root })).status).toBe(404);

    const signOut = await collector.request('/api/v1/session', { method: 'DELETE', headers: { cookie, origin: OWN } });
    expect(signOut.status).toBe(204);
    expect(signOut.headers.get('set-cookie')).toMatch(/^sitebeacon_session=;.*Max-Age=0/i);
    expect((await get(`/api/v1/sites/${shop}/summary`)).status).toBe(401);
  });

  test('a write made with the cookie needs this collector’s own Origin (403 csrf); with an API key it does not', async () => {
    const cookie = await collector.signIn('root@shop.example', 'root-password-1');
    const queue = (headers: Record<string, string>) =>
      collector.request(`/api/v1/sites/${shop}/actions`, {
        method: 'POST',
        body: JSON.stringify({ type: 'flush_cache' }),
        headers: { 'content-type': 'application/json', ...headers },
      });
    for (const origin of [undefined, 'https://evil.example', 'null']) {
      const response = await queue({ cookie, ...(origin ? { origin } : {}) });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code: 'csrf' } });
    }
    expect(await collector.store.actions.pending(shop)).toEqual([]);
    expect((await queue({ cookie, origin: OWN })).status).toBeLessThan(300);
    expect((await queue({ cookie, origin: 'http://127.0.0.1:8787' })).status).toBeLessThan(300);
    expect((await queue({ authorization: `Bearer ${await collector.apiKey(shop)}` })).status).toBeLessThan(300);
    // Sign-out with the cookie from another origin is refused too.
    expect((await collector.request('/api/v1/session', { method: 'DELETE', headers: { cookie, origin: 'https://evil.example' } })).status).toBe(403);
  });
});
