// Properties of the whole route table (collectorRoutes in app.ts), so a route added later is
// covered too (docs/hostile-input.md, "Authentication before validation"):
// - authentication comes before validation: a missing or wrong credential to an authenticated
//   route answers 401, the same 401 whatever the body, Content-Type, query or path parameters;
// - HEAD is answered wherever `Allow` lists it, like the GET without its body.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { collectorRoutes } from './app';
import type { Route } from './http/route';
import { createTestCollector } from './testing/testCollector';

const RUNS = Number(process.env.FUZZ_RUNS || 60);
let collector: ReturnType<typeof createTestCollector>;
let updatesDir: string;
let routes: Route[];
/** Real values for every path parameter, and the credential each auth kind takes. */
let params: Record<string, string>;
let installationKey: string;
let agentToken: string;

beforeAll(async () => {
  updatesDir = mkdtempSync(join(tmpdir(), 'sitebeacon-table-'));
  writeFileSync(join(updatesDir, 'sitebeacon-agent-1.0.0-linux-amd64.tar.gz'), Buffer.from([0x1f, 0x8b, 0, 0]));
  collector = createTestCollector({ agentUpdates: { dir: updatesDir, privateKey: generateKeyPairSync('ed25519').privateKey } });
  const siteKey = await collector.addSite(['https://shop.example']);
  installationKey = await collector.apiKey();
  const project = await collector.store.cspProjects.create({ site_key: siteKey, name: 'p', mode: 'report-only', base_policy: "default-src 'self'" });
  const agent = await (
    await collector.post('/api/v1/server-agents/register', { hostname: 'h', os: 'linux', arch: 'x86_64', agent_version: '1' }, { authorization: `Bearer ${installationKey}` })
  ).json();
  agentToken = agent.agent_token;
  params = { site_key: siteKey, id: String(project.id), file: 'sitebeacon-agent-1.0.0-linux-amd64.tar.gz', fingerprint: 'f' };
  routes = collectorRoutes({ store: collector.store, beaconFile: 'dist/beacon.min.js', links: { appUrl: () => 'http://127.0.0.1:8787' } });
});
afterAll(async () => {
  expect(collector.errors).toEqual([]);
  await collector.close();
  rmSync(updatesDir, { recursive: true, force: true });
});

const AUTHENTICATED = new Set(['apiKey', 'siteApiKey', 'agentToken', 'agentTokenOrApiKey']);
const fill = (path: string, values: Record<string, string>) => path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? 'x'));

/** Ways to present no valid credential: none, garbage, and well-formed keys and tokens nobody was given. */
const wrongCredential = fc.oneof(
  fc.constant({}),
  fc.string({ maxLength: 40 }).map((key) => ({ authorization: `Bearer ${key.replace(/[\r\n\0]/g, '')}` })),
  fc.string({ minLength: 1, maxLength: 40 }).map((key) => ({ 'x-api-key': key.replace(/[\r\n\0]/g, '') || 'k' })),
  fc.stringMatching(/^[\w-]{32}$/).map((secret) => ({ authorization: `Bearer sbk_${secret}` })),
  fc.tuple(fc.stringMatching(/^[0-9a-f]{16}$/), fc.stringMatching(/^[\w-]{43}$/)).map(([id, secret]) => ({ authorization: `Bearer sba_agt_${id}_${secret}` })),
  fc.constant({ authorization: 'Basic dXNlcjpwYXNz' }),
);
const anyBody = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string(),
  fc.constant('{"site_url":'),
  fc.constant('x'.repeat(70_000)),
);
const anyContentType = fc.constantFrom(undefined, 'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/csp-report', 'image/png', ';;');
const anyQuery = fc.oneof(fc.constant(''), fc.dictionary(fc.constantFrom('arch', 'since', 'limit', 'cursor', 'policy', 'site_key', 'x'), fc.string({ maxLength: 20 })).map((query) => `?${new URLSearchParams(query)}`));
const anyParams = fc.oneof(
  fc.constant(undefined),
  // One path segment (an empty one, or `..`, is another path and answers 404 as any unknown path).
  fc.record({
    site_key: fc.stringMatching(/^[\w~-][\w.~-]{0,29}$/),
    id: fc.stringMatching(/^[\w~-][\w.~-]{0,29}$/),
    file: fc.stringMatching(/^[\w~-][\w.~-]{0,29}$/),
    fingerprint: fc.stringMatching(/^[\w~-][\w.~-]{0,29}$/),
  }),
);

test('every authenticated route answers a missing or wrong credential with the same 401, whatever the request carries', async () => {
  const authenticated = routes.filter((route) => AUTHENTICATED.has(route.auth));
  expect(authenticated.length).toBeGreaterThanOrEqual(17);
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...authenticated),
      wrongCredential,
      anyBody,
      anyContentType,
      anyQuery,
      anyParams,
      async (route, credential, body, contentType, query, randomParams) => {
        const path = fill(route.path, randomParams ?? params) + query;
        const send = (withBody: boolean) =>
          collector.request(path, {
            method: route.method,
            headers: { ...credential, ...(withBody && contentType ? { 'content-type': contentType } : {}) },
            body: withBody && !['GET', 'HEAD'].includes(route.method) ? body : undefined,
          });
        const response = await send(true);
        expect(response.status, `${route.method} ${path}`).toBe(401);
        if (route.method == 'HEAD') return;
        const answer = await response.json();
        expect(answer.error.code).toBe('unauthorized');
        // Nothing in the answer depends on the body: the same as without one.
        expect(answer).toEqual(await (await send(false)).json());
      },
    ),
    { seed: 20261127, numRuns: RUNS * 4 },
  );
}, 60_000);

test('HEAD is answered wherever Allow lists it: the status and headers of the GET, no body', async () => {
  const paths = [...new Set(routes.map((route) => route.path))];
  let heads = 0;
  for (const route of paths) {
    const path = fill(route, params);
    // A method no route declares makes the path say what it allows.
    const refused = await collector.request(path, { method: 'QUERY' });
    expect(refused.status, `QUERY ${path}`).toBe(405);
    const allow = refused.headers.get('allow')!.split(', ');
    const credential = routes.find((r) => r.path == route && r.method == 'GET')?.auth == 'agentToken' ? agentToken : installationKey;
    const headers = { authorization: `Bearer ${credential}` };
    const head = await collector.request(path, { method: 'HEAD', headers });
    if (!allow.includes('HEAD')) {
      expect(head.status, `HEAD ${path}`).toBe(405);
      continue;
    }
    heads++;
    const get = await collector.request(path, { headers });
    expect(head.status, `HEAD ${path}`).toBe(get.status);
    expect(head.headers.get('content-type'), `HEAD ${path}`).toBe(get.headers.get('content-type'));
    expect(await head.text(), `HEAD ${path}`).toBe('');
    await get.arrayBuffer();
  }
  expect(heads).toBeGreaterThanOrEqual(12);
});
