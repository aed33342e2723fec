import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTestCollector } from '../testing/testCollector';
import { MAX_RULES } from './alerts';

// The alerts API (docs/alerts.md, "The API"): rules read and managed by installation keys and the
// site's users, validated whole, webhooks to internal addresses refused; a site's key manages email
// only. Real SQLite files, the app called in-process. Tests and deliveries: alertTests.test.ts.

const SHOP = 'https://shop.example';
const PUBLIC_HOOK = 'https://93.184.215.14/hooks/sitebeacon';
const EMAIL = { type: 'email', to: 'owner@shop.example' } as const;
const WEBHOOK = { type: 'webhook', url: PUBLIC_HOOK, format: 'slack', secret: 'rule-secret-1' };

describe('the alerts API', { timeout: 30_000 }, () => {
  let collector: ReturnType<typeof createTestCollector>;
  let site: string;
  let other: string;
  let key: string;

  const bearer = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = bearer(key), siteKey = site) =>
    collector.request(`/api/v1/sites/${siteKey}/alerts${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? null : typeof body == 'string' ? body : JSON.stringify(body),
    });
  const rules = async (siteKey = site) => collector.store.alerts.rules(siteKey);
  const refused = async (response: Response, status: number, code: string, names?: string) => {
    const text = await response.text();
    expect(response.status, text).toBe(status);
    const { error } = JSON.parse(text) as { error: { code: string; message: string } };
    expect(error.code).toBe(code);
    if (names) expect(error.message).toContain(names);
  };

  beforeEach(async () => {
    collector = createTestCollector();
    site = await collector.addSite([SHOP], 'Shop');
    other = await collector.addSite(['https://other.example'], 'Other');
    key = await collector.apiKey();
  });
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    await collector.close();
  });

  test('an installation key adds a rule (201, a webhook as signed, its secret never answered), lists it, removes it', async () => {
    const added = await call('POST', '', { kind: 'new_issue', channels: [EMAIL, WEBHOOK], cooldown_minutes: 30 });
    const text = await added.text();
    expect(added.status, text).toBe(201);
    expect(text).not.toContain('rule-secret-1');
    const rule = JSON.parse(text) as { id: number };
    expect(rule).toEqual({
      id: expect.any(Number),
      kind: 'new_issue',
      channels: [EMAIL, { type: 'webhook', url: PUBLIC_HOOK, format: 'slack', signed: true }],
      cooldown_minutes: 30,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // The secret is stored for signing.
    expect((await rules())[0]!.channels[1]).toEqual(WEBHOOK);
    const listed = await call('GET', '');
    const listText = await listed.text();
    expect(listed.status).toBe(200);
    expect(listText).not.toContain('rule-secret-1');
    expect(JSON.parse(listText)).toEqual({ data: [rule] });

    // Defaults: json, unsigned, an hour's cooldown; a spike with its window and count.
    const plain = await call('POST', '', { kind: 'regression', channels: [{ type: 'webhook', url: PUBLIC_HOOK }] });
    expect(await plain.json()).toMatchObject({ channels: [{ type: 'webhook', url: PUBLIC_HOOK, format: 'json', signed: false }], cooldown_minutes: 60 });
    const spike = await call('POST', '', { kind: 'spike', window_minutes: 10, count: 50, channels: [EMAIL] });
    expect(spike.status).toBe(201);
    expect(await spike.json()).toMatchObject({ kind: 'spike', window_minutes: 10, count: 50 });

    expect((await call('DELETE', `/${rule.id}`)).status).toBe(204);
    expect((await rules()).map(({ kind }) => kind)).toEqual(['regression', 'spike']);
    await refused(await call('DELETE', `/${rule.id}`), 404, 'unknown_alert');
    for (const id of ['0', '-1', 'abc', '1e3', '99999999999999999999']) await refused(await call('DELETE', `/${id}`), 404, 'unknown_alert');
  });

  test('hostile bodies: a 400 naming what is wrong, nothing stored', async () => {
    const cases: Array<[body: unknown, names: string]> = [
      [{ kind: 'everything', channels: [EMAIL] }, 'kind must be one of'],
      [{ kind: 'new_issue', channels: [] }, 'channels must name at least one channel'],
      [{ kind: 'new_issue' }, 'channels'],
      [{ kind: 'new_issue', channels: Array(11).fill(EMAIL) }, 'channels must be at most 10'],
      [{ kind: 'new_issue', channels: [{ type: 'sms', to: '+33 6' }] }, 'channels.0'],
      [{ kind: 'new_issue', channels: [{ type: 'email', to: 'owner@shop.example\r\nBcc: everyone@shop.example' }] }, 'channels.0.to'],
      [{ kind: 'new_issue', channels: [{ type: 'email', to: 'a@shop.example, b@shop.example' }] }, 'channels.0.to'],
      [{ kind: 'new_issue', channels: [{ type: 'email', to: '"Owner" <owner@shop.example>' }] }, 'channels.0.to'],
      [{ kind: 'new_issue', channels: [{ type: 'email', to: `${'a'.repeat(250)}@shop.example` }] }, 'channels.0.to'],
      [{ kind: 'new_issue', channels: [{ type: 'email', to: 'owner@shop.example', cc: 'x@y.example' }] }, 'channels.0'],
      [{ kind: 'new_issue', channels: [EMAIL, { type: 'webhook', url: 'javascript:alert(1)' }] }, 'channels.1.url'],
      [{ kind: 'new_issue', channels: [{ type: 'webhook', url: 'ftp://93.184.215.14/x' }] }, 'channels.0.url'],
      [{ kind: 'new_issue', channels: [{ type: 'webhook', url: 'https://93.184.215.14/a\nb' }] }, 'channels.0.url'],
      [{ kind: 'new_issue', channels: [{ type: 'webhook', url: `https://93.184.215.14/${'a'.repeat(2100)}` }] }, 'channels.0.url'],
      [{ kind: 'new_issue', channels: [{ ...WEBHOOK, format: 'teams' }] }, 'channels.0.format'],
      [{ kind: 'new_issue', channels: [{ ...WEBHOOK, secret: '' }] }, 'channels.0.secret'],
      [{ kind: 'new_issue', channels: [{ ...WEBHOOK, secret: 'a\u0000b' }] }, 'channels.0.secret'],
      [{ kind: 'new_issue', channels: [{ ...WEBHOOK, secret: 's'.repeat(257) }] }, 'channels.0.secret'],
      [{ kind: 'new_issue', channels: [EMAIL], cooldown_minutes: -1 }, 'cooldown_minutes'],
      [{ kind: 'new_issue', channels: [EMAIL], cooldown_minutes: 1.5 }, 'cooldown_minutes'],
      [{ kind: 'new_issue', channels: [EMAIL], cooldown_minutes: '60' }, 'cooldown_minutes'],
      [{ kind: 'new_issue', channels: [EMAIL], cooldown_minutes: 1e9 }, 'cooldown_minutes'],
      [{ kind: 'new_issue', channels: [EMAIL], cooldown_minute: 5 }, 'cooldown_minute'],
      [{ kind: 'new_issue', channels: [EMAIL], window_minutes: 10 }, 'takes no window_minutes'],
      [{ kind: 'spike', channels: [EMAIL], count: 5 }, 'window_minutes'],
      [{ kind: 'spike', channels: [EMAIL], window_minutes: 10 }, 'factor or count'],
      [{ kind: 'vital_poor', channels: [EMAIL], metric: 'FID' }, 'metric'],
      ['{"kind":"new_issue","channels":[{"type":"email","to":"owner@shop.example"}],"__proto__":{"admin":true}}', ''],
      [[{ kind: 'new_issue', channels: [EMAIL] }], ''],
    ];
    for (const [body, names] of cases) await refused(await call('POST', '', body), 400, 'invalid_request', names);
    await refused(await call('POST', '', '{"kind":'), 400, 'invalid_json');
    await refused(await call('POST', '', `{"kind":"new_issue","channels":${'['.repeat(40)}${']'.repeat(40)}}`), 400, 'invalid_json');
    await refused(await call('POST', '', { kind: 'new_issue', channels: [EMAIL], pad: 'x'.repeat(20_000) }), 413, 'payload_too_large');
    const form = await collector.request(`/api/v1/sites/${site}/alerts`, { method: 'POST', headers: { ...bearer(key), 'content-type': 'text/plain' }, body: '{}' });
    await refused(form, 415, 'unsupported_media_type');
    expect(await rules()).toEqual([]);
  });

  test('a webhook to a private, loopback or link-local address is refused (400) unless --allow-private-webhooks', async () => {
    const targets = [
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/hook',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[fe80::1]/hook',
      'http://localhost:9000/hook',
      'http://admin.localhost./hook',
      'http://0.0.0.0/',
      'http://2130706433/',
    ];
    for (const url of targets) {
      await refused(await call('POST', '', { kind: 'new_issue', channels: [EMAIL, { type: 'webhook', url }] }), 400, 'invalid_request', 'channels.1.url');
    }
    expect(await rules()).toEqual([]);

    const allowing = createTestCollector({ alerts: { allowPrivateWebhooks: true } });
    try {
      const shop = await allowing.addSite([SHOP], 'Shop');
      const response = await allowing.request(`/api/v1/sites/${shop}/alerts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(await allowing.apiKey()) },
        body: JSON.stringify({ kind: 'new_issue', channels: [{ type: 'webhook', url: 'http://127.0.0.1:8080/hook' }] }),
      });
      expect(response.status).toBe(201);
      expect(allowing.errors).toEqual([]);
    } finally {
      await allowing.close();
    }
  });

  test("who may: no key 401, another site's key 403, an unknown site 404, nothing stored; a site's key manages email only and sees a webhook's origin", async () => {
    const body = { kind: 'new_issue', channels: [EMAIL] };
    await refused(await call('POST', '', body, {}), 401, 'unauthorized');
    await refused(await call('POST', '', body, bearer('sb_nosuchkey')), 401, 'unauthorized');
    await refused(await call('GET', '', undefined, {}), 401, 'unauthorized');
    const otherKey = await collector.apiKey(other);
    for (const [method, path] of [['GET', ''], ['POST', ''], ['DELETE', '/1'], ['POST', '/1/test'], ['GET', '/deliveries']] as const) {
      await refused(await call(method, path, method == 'POST' && !path ? body : undefined, bearer(otherKey)), 403, 'forbidden');
    }
    await refused(await call('POST', '', body, bearer(key), 'nosuchsite'), 404, 'unknown_site');
    expect([...(await rules()), ...(await rules(other))]).toEqual([]);

    // An installation key's webhook rule, then the site's own key.
    const hooked = (await (await call('POST', '', { kind: 'new_issue', channels: [EMAIL, WEBHOOK] })).json()) as { id: number };
    const siteKey = await collector.apiKey(site);
    await refused(await call('POST', '', { kind: 'regression', channels: [WEBHOOK] }, bearer(siteKey)), 403, 'forbidden', 'webhook');
    const mailOnly = await call('POST', '', { kind: 'regression', channels: [EMAIL] }, bearer(siteKey));
    expect(mailOnly.status).toBe(201);
    // Its own email rule it may test (this collector has no mail server: the test says so).
    const tested = await call('POST', `/${((await mailOnly.json()) as { id: number }).id}/test`, undefined, bearer(siteKey));
    expect(tested.status).toBe(200);
    expect(((await tested.json()) as { deliveries: Array<{ status: string }> }).deliveries.map(({ status }) => status)).toEqual(['failed']);
    const seen = (await (await call('GET', '', undefined, bearer(siteKey))).json()) as { data: Array<{ channels: unknown[] }> };
    expect(seen.data[0]!.channels).toEqual([EMAIL, { type: 'webhook', url: 'https://93.184.215.14/…', format: 'slack', signed: true }]);
    await refused(await call('DELETE', `/${hooked.id}`, undefined, bearer(siteKey)), 403, 'forbidden');
    await refused(await call('POST', `/${hooked.id}/test`, undefined, bearer(siteKey)), 403, 'forbidden');
    expect((await rules()).map(({ kind }) => kind)).toEqual(['new_issue', 'regression']);
  });

  test("the site's dashboard users: writes need this collector's Origin (403 csrf), a user of other sites gets 403", async () => {
    await collector.addUser('owner@shop.example', 'correct horse battery', [site]);
    await collector.addUser('other@other.example', 'correct horse battery', [other]);
    const owner = { cookie: await collector.signIn('owner@shop.example', 'correct horse battery') };
    const stranger = { cookie: await collector.signIn('other@other.example', 'correct horse battery') };
    const body = { kind: 'new_issue', channels: [EMAIL, WEBHOOK] };
    await refused(await call('POST', '', body, owner), 403, 'csrf');
    await refused(await call('POST', '', body, { ...owner, origin: 'https://evil.example' }), 403, 'csrf');
    await refused(await call('POST', '', body, { ...stranger, origin: 'http://collector.test' }), 403, 'forbidden');
    expect(await rules()).toEqual([]);
    const added = await call('POST', '', body, { ...owner, origin: 'http://collector.test' });
    expect(added.status).toBe(201);
    const { id } = (await added.json()) as { id: number };
    expect(((await (await call('GET', '', undefined, owner)).json()) as { data: unknown[] }).data).toHaveLength(1);
    await refused(await call('DELETE', `/${id}`, undefined, owner), 403, 'csrf');
    expect((await call('DELETE', `/${id}`, undefined, { ...owner, origin: 'http://collector.test' })).status).toBe(204);
  });

  test(`a site has at most ${MAX_RULES} rules: 409 too_many_rules`, async () => {
    for (let i = 0; i < MAX_RULES; i++) await collector.store.alerts.addRule(site, { kind: 'new_issue', channels: [EMAIL], cooldown_minutes: 60 });
    await refused(await call('POST', '', { kind: 'new_issue', channels: [EMAIL] }), 409, 'too_many_rules');
    expect(await rules()).toHaveLength(MAX_RULES);
  });
});
