// A CSP project's sources over the HTTP app (docs/csp-reports.md, "Evidence per source"): each
// source the suggestion would add with its evidence and class, the owner's decisions, and the
// suggestion they make: accepted and undecided sources in, rejected and likely injected ones out.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { newCspReport } from '../core/newReports';
import { createTestCollector } from '../testing/testCollector';

let collector: ReturnType<typeof createTestCollector>;
let site: string;
let key: string;

const call = (method: string, path: string, body?: unknown, bearer = key) =>
  collector.request(path, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body == 'string' ? body : JSON.stringify(body),
  });
const json = async (response: Response) => (await response.json()) as Record<string, any>;
const violation = (directive: string, blocked: string, page = 'https://www.shop.example/') => ({
  report_type: 'csp-violation', document_uri: page, effective_directive: directive, violated_directive: directive, blocked_uri: blocked,
});
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

beforeEach(async () => {
  collector = createTestCollector();
  site = await collector.addSite(['https://www.shop.example'], 'Shop');
  key = await collector.apiKey(site);
});
afterEach(async () => {
  await collector.close();
});

test('sources with their evidence and class; decisions recorded; the suggestion is the base plus accepted and undecided sources, not rejected or likely injected ones', async () => {
  const now = Date.now();
  const store = collector.store;
  // 40 visitors' page views; the payment frame from 30 of them, an injected image from one, the site's own CDN from 2.
  for (let visitor = 0; visitor < 40; visitor++) {
    await store.performance.upsert(site, { session_id: `s${visitor}`, page_url: 'https://www.shop.example/', metrics: {} }, { received_at: now, visitor: `v${visitor}` });
    if (visitor < 30) await store.csp.insert(site, [newCspReport(violation('frame-src', 'https://pay.example/checkout', `https://www.shop.example/p${visitor % 3}`))], { received_at: now - visitor, visitor: `v${visitor}`, user_agent: CHROME });
  }
  await store.csp.insert(site, [newCspReport(violation('img-src', 'https://inject.example/a.gif'))], { received_at: now, visitor: 'v0', user_agent: CHROME });
  await store.csp.insert(site, [newCspReport(violation('img-src', 'https://cdn.shop.example/a.png'))], { received_at: now, visitor: 'v1' });
  const created = await json(await call('POST', '/api/v1/csp-projects', { site_key: site, name: 'Shop', base_policy: "default-src 'self'" }));

  const sources = await call('GET', `/api/v1/csp-projects/${created.id}/sources`);
  expect(sources.status).toBe(200);
  expect((await json(sources)).data).toEqual([
    {
      directive: 'frame-src', source: 'https://pay.example', reports: 30, pages: 3, visitors_share: 30 / 40,
      first_seen: new Date(now - 29).toISOString(), browsers: ['Chrome'], class: 'third_party', decision: null,
    },
    { directive: 'img-src', source: 'https://cdn.shop.example', reports: 1, pages: 1, visitors_share: 1 / 40, first_seen: new Date(now).toISOString(), browsers: [], class: 'own', decision: null },
    { directive: 'img-src', source: 'https://inject.example', reports: 1, pages: 1, visitors_share: 1 / 40, first_seen: new Date(now).toISOString(), browsers: ['Chrome'], class: 'likely_injected', decision: null },
  ]);
  // Undecided: the injected image is held out, the rest go in, each in its own directive.
  const before = await json(await call('GET', `/api/v1/csp-projects/${created.id}/suggested-policy`));
  expect(before.policy).toBe("default-src 'self'; frame-src 'self' https://pay.example; img-src 'self' https://cdn.shop.example");
  expect(before.withheld).toEqual([{ directive: 'img-src', source: 'https://inject.example', reports: 1, reason: 'likely_injected' }]);

  // The owner accepts the injected-looking image (a partner's pixel after all) and rejects the frame.
  const decided = await call('PUT', `/api/v1/csp-projects/${created.id}/sources`, [
    { directive: 'img-src', source: 'https://inject.example', decision: 'accepted' },
    { directive: 'FRAME-SRC', source: 'https://pay.example', decision: 'rejected' },
  ]);
  expect(decided.status).toBe(200);
  expect((await json(decided)).data.map((source: any) => [source.source, source.decision])).toEqual([
    ['https://pay.example', 'rejected'], ['https://cdn.shop.example', null], ['https://inject.example', 'accepted'],
  ]);
  const after = await json(await call('GET', `/api/v1/csp-projects/${created.id}/suggested-policy`));
  expect(after.policy).toBe("default-src 'self'; img-src 'self' https://cdn.shop.example https://inject.example");
  expect(after.withheld).toEqual([{ directive: 'frame-src', source: 'https://pay.example', reports: 30, reason: 'rejected' }]);
  // null forgets a decision.
  await call('PUT', `/api/v1/csp-projects/${created.id}/sources`, [{ directive: 'frame-src', source: 'https://pay.example', decision: null }]);
  expect((await json(await call('GET', `/api/v1/csp-projects/${created.id}/suggested-policy`))).policy).toContain('frame-src');
});

test.each([
  ['not an array', { directive: 'img-src', source: 'https://a.example', decision: 'accepted' }],
  ['empty', []],
  ['no fetch directive', [{ directive: 'frame-ancestors', source: 'https://a.example', decision: 'accepted' }]],
  ['no source expression', [{ directive: 'img-src', source: 'https://a.example; script-src *', decision: 'accepted' }]],
  ['an unknown decision', [{ directive: 'img-src', source: 'https://a.example', decision: 'maybe' }]],
  ['too many', Array.from({ length: 201 }, (_, index) => ({ directive: 'img-src', source: `https://h${index}.example`, decision: 'accepted' }))],
])('a PUT of %s is 400 and records nothing', async (_name, body) => {
  const created = await json(await call('POST', '/api/v1/csp-projects', { site_key: site, name: 'Shop', base_policy: "default-src 'self'" }));
  const response = await call('PUT', `/api/v1/csp-projects/${created.id}/sources`, body);
  expect(response.status).toBe(400);
  expect(await collector.store.cspSources.decisions(created.id)).toEqual([]);
});

test("another site's key neither reads nor decides a project's sources; an unknown project is 404", async () => {
  const created = await json(await call('POST', '/api/v1/csp-projects', { site_key: site, name: 'Shop', base_policy: "default-src 'self'" }));
  const blog = await collector.addSite(['https://blog.example'], 'Blog');
  const blogKey = await collector.apiKey(blog);
  expect((await call('GET', `/api/v1/csp-projects/${created.id}/sources`, undefined, blogKey)).status).toBe(403);
  const decision = [{ directive: 'img-src', source: 'https://a.example', decision: 'accepted' }];
  expect((await call('PUT', `/api/v1/csp-projects/${created.id}/sources`, decision, blogKey)).status).toBe(403);
  expect(await collector.store.cspSources.decisions(created.id)).toEqual([]);
  expect((await call('GET', '/api/v1/csp-projects/999999/sources')).status).toBe(404);
});
