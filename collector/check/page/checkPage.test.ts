import type { OutgoingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { httpServer, refusedPort, type FaultServer } from '../testing/faultServers';
import { useHttpsCollector } from '../testing/httpsCollector';
import { runCheckForTest } from '../testing/runCheckForTest';

const served = useHttpsCollector('sitebeacon-check-page-');
let pages: FaultServer;
let pageOrigin: string;
/** The pages the page server serves, by path: headers and HTML. */
const routes = new Map<string, { headers?: OutgoingHttpHeaders; html?: string; status?: number }>();

beforeAll(async () => {
  pages = await httpServer((request, response) => {
    const route = routes.get(request.url ?? '') ?? { status: 404, html: 'not found' };
    response.writeHead(route.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...route.headers }).end(route.html ?? '');
  });
  pageOrigin = `http://127.0.0.1:${pages.port}`;
});

afterAll(async () => {
  await pages.close();
});

const site = (allowedOrigins: string[]) => served.collector.addSite(allowedOrigins, 'Shop');
const tag = (siteKey: string) => `<script src="${served.origin}/beacon.js" data-site-key="${siteKey}" data-ingest-origin="${served.origin}" async></script>`;
const page = (path: string, route: { headers?: OutgoingHttpHeaders; html?: string; status?: number }) => {
  routes.set(path, route);
  return `${pageOrigin}${path}`;
};
const check = (...args: string[]) => runCheckForTest([`${served.origin}/api`, '--ca', served.certificates.rootCa, '--json', ...args]);

test('a page whose CSP allows the collector, on an allowed origin: every step passes', async () => {
  const key = await site([pageOrigin]);
  const url = page('/allowed', {
    headers: { 'content-security-policy': `default-src 'self'; connect-src 'self' ${served.origin}; script-src 'self' ${served.origin}` },
    html: `<!doctype html><head><title>Shop</title>${tag(key)}</head><body></body>`,
  });
  const result = await check('--site', key, '--page', url);
  expect(result.code, result.out).toBe(0);
  expect(result.steps.slice(-2)).toMatchObject([
    { step: 'page', ok: true, detail: `${url}: its 1 enforced policy allows the collector in connect-src and the script in script-src; its sitebeacon tag loads ${served.origin}/beacon.js` },
    { step: 'origin', ok: true, detail: `the site ${key} accepts reports from ${pageOrigin} (preflight OPTIONS /api/error-reports/${key} answered 204)` },
  ]);
});

test("a header CSP of default-src 'self': exit 9 with the exact sources to add, for connect-src and script-src", async () => {
  const key = await site([pageOrigin]);
  const url = page('/self-only', { headers: { 'content-security-policy': "default-src 'self'" }, html: tag(key) });
  const result = await check('--page', url);
  expect(result.code).toBe(9);
  const failed = result.steps.find((step) => step.step == 'page')!;
  expect(failed.ok).toBe(false);
  expect(failed.detail).toBe(
    `the CSP of ${url} stops visitors' browsers from reporting: ` +
      `connect-src blocks ${served.origin}/api/error-reports/${key}: add ${served.origin} to default-src of the header policy 1 (it governs connect-src there); ` +
      `script-src-elem blocks ${served.origin}/beacon.js: add ${served.origin} to default-src of the header policy 1 (it governs script-src-elem there)`,
  );
  // The site key came from the page's tag; the origin is still checked, so one run lists every fix.
  expect(result.steps.at(-1)).toMatchObject({ step: 'origin', ok: true });
});

test('a <meta> policy in <head> blocks although the header allows (every policy applies); one in <body> does not count', async () => {
  const key = await site([pageOrigin]);
  const header = { 'content-security-policy': `connect-src ${served.origin}; script-src ${served.origin}` };
  const blocked = page('/meta-blocks', { headers: header, html: `<head><meta http-equiv="Content-Security-Policy" content="connect-src 'self'">${tag(key)}</head>` });
  const result = await check('--site', key, '--page', blocked);
  expect(result.code).toBe(9);
  expect(result.out).toContain(`connect-src blocks ${served.origin}/api/error-reports/${key}: add ${served.origin} to connect-src of the <meta> policy 1`);
  expect(result.out).not.toContain('script-src-elem blocks');

  const inBody = page('/meta-in-body', { headers: header, html: `<head>${tag(key)}</head><body><meta http-equiv="Content-Security-Policy" content="connect-src 'none'"></body>` });
  expect((await check('--site', key, '--page', inBody)).code).toBe(0);
});

test("the site does not allow the page's origin: exit 9, naming the origin to add", async () => {
  const key = await site(['https://elsewhere.example']);
  const url = page('/foreign-origin', { html: tag(key) });
  const result = await check('--site', key, '--page', url);
  expect(result.code).toBe(9);
  expect(result.steps.find((step) => step.step == 'page')).toMatchObject({ ok: true, detail: expect.stringContaining('it has no enforced CSP') });
  expect(result.steps.at(-1)).toMatchObject({ step: 'origin', ok: false });
  expect(result.steps.at(-1)!.detail).toBe(
    `the site ${key} does not allow the page's origin ${pageOrigin}: its browsers' reports are refused (403 origin_not_allowed); add ${pageOrigin} to the site's allowed origins`,
  );
});

test('redirects are followed to the page a browser ends on; a page that cannot be fetched is exit 9 with the cause', async () => {
  const key = await site([pageOrigin]);
  page('/final', { html: tag(key), headers: { 'content-security-policy': `connect-src ${served.origin}` } });
  const start = page('/start', { status: 302, headers: { location: '/final' } });
  const followed = await check('--page', start);
  expect(followed.code, followed.out).toBe(0);
  expect(followed.steps.find((step) => step.step == 'page')!.detail).toMatch(new RegExp(`^${pageOrigin}/final: its 1 enforced policy allows`));

  const port = await refusedPort();
  const unreachable = await check('--page', `http://127.0.0.1:${port}/`);
  expect(unreachable.code).toBe(9);
  expect(unreachable.steps.at(-1)).toMatchObject({ step: 'page', ok: false });
  expect(unreachable.steps.at(-1)!.detail).toContain(`could not fetch the page http://127.0.0.1:${port}/ from this machine: 127.0.0.1:${port} (127.0.0.1) refused the connection`);
});

test('without --site and without a tag on the page, the origin step says how to check it', async () => {
  const url = page('/no-tag', { html: '<title>Plain</title>' });
  const result = await check('--page', url);
  expect(result.code).toBe(0);
  expect(result.steps.at(-2)!.detail).toContain(`no sitebeacon tag on the page (npm build?); checked ${served.origin}/beacon.js`);
  expect(result.steps.at(-1)).toMatchObject({ step: 'origin', ok: true, detail: `skipped: give --site SITE_KEY to check that the site allows ${pageOrigin}` });
});
