// CSP projects over the HTTP app: hostile reports (issue 11, classes 3, 4, 5 and 9) never break the
// suggested-policy and header endpoints, and what they answer stays a deployable, well-formed policy.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createTestCollector } from '../testCollector';

let collector: ReturnType<typeof createTestCollector>;
let site: string;
let key: string;

const call = (method: string, path: string, body?: unknown) =>
  collector.request(path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body == 'string' ? body : JSON.stringify(body),
  });
const json = async (response: Response) => (await response.json()) as Record<string, any>;
const createProject = async (base_policy: string) => {
  const response = await call('POST', '/api/v1/csp-projects', { site_key: site, name: 'Shop', base_policy });
  expect(response.status).toBe(201);
  return (await json(response)).id as number;
};
/** A CSP2 report as a browser (or anyone) can POST it, unauthenticated. */
const report = (directive: string, blocked: string, documentUri = 'https://shop.example/cart') =>
  collector.post(`/api/csp-reports/${site}`, {
    'csp-report': { 'document-uri': documentUri, 'violated-directive': directive, 'effective-directive': directive, 'blocked-uri': blocked },
  }, { origin: 'https://shop.example' });

beforeEach(async () => {
  collector = createTestCollector();
  site = (await collector.store.addSite({ name: 'Shop', allowedOrigins: ['https://shop.example'] })).siteKey;
  key = await collector.apiKey(site);
});
afterEach(async () => {
  await collector.close();
});

test('a report whose directive is named like an Object.prototype member does not break the suggestion (issue 11, class 4)', async () => {
  const id = await createProject("default-src 'self'");
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
    expect((await report(name, 'https://cdn.example.net/x.png')).status).toBe(202);
    expect((await report('img-src', name)).status).toBe(202);
  }
  expect((await report('img-src', 'https://cdn.example.net/x.png')).status).toBe(202);
  for (let attempt = 0; attempt < 2; attempt++) {
    const suggested = await call('GET', `/api/v1/csp-projects/${id}/suggested-policy`);
    expect(suggested.status).toBe(200);
    expect((await json(suggested)).policy).toBe("default-src 'self' https://cdn.example.net");
    const header = await call('GET', `/api/v1/csp-projects/${id}/header?policy=suggested`);
    expect(header.status).toBe(200);
  }
  expect(collector.errors).toEqual([]);
});
