import AxeBuilder from '@axe-core/playwright';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { BROWSER_USER_AGENT, ingest, screenshots, signInWithForm } from './dashboardKit';
import { expect, test } from './fixtures';

// Each payload would run script if any stored string reached the page as markup or as a URL.
const HOSTILE = {
  img: '<img src=x onerror="window.__pwned=1">',
  script: '</script><script>window.__pwned=2</script>',
  url: 'javascript:window.__pwned=3',
  long: `${'W'.repeat(1500)}<b>${'x'.repeat(400)}</b>`,
};
const all = Object.values(HOSTILE).join(' ');

// Each test signs in, seeds through the CLI and HTTP, and visits several pages at two widths.
test.describe.configure({ timeout: 150_000 });

/** Records whatever the page would have run: a dialog, a global the payloads set, a page error. */
const watch = (page: Page) => {
  const ran: string[] = [];
  page.on('dialog', (dialog) => {
    ran.push(`dialog ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => ran.push(`pageerror ${error.message}`));
  return {
    ran,
    check: async () => expect([...ran, ...((await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)) === undefined ? [] : ['__pwned set'])]).toEqual([]),
  };
};

test('hostile content in every stored field is shown as text: nothing executes and the layout holds', async ({ page, collector }) => {
  const siteKey = (JSON.parse((await collector.cli('site', 'add', '--origin', 'https://shop.example', '--name', `${HOSTILE.img}${HOSTILE.script}${HOSTILE.long}`, '--json')).stdout) as { site_key: string }).site_key;
  const password = await collector.addUser('owner@shop.example');
  // A browser's user agent with the payloads after it: the payloads alone read as a bot's, whose
  // reports the issues leave out (docs/issues.md, "Bots").
  const headers = { 'content-type': 'application/json', 'user-agent': `${BROWSER_USER_AGENT} ${HOSTILE.img} ${HOSTILE.script} ${HOSTILE.long}` };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${collector.url}/api/${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(response.status).toBeLessThan(300);
  };
  await post(`error-reports/${siteKey}`, {
    error_type: HOSTILE.img, error_name: HOSTILE.script, error_message: all, stack: `${all}\n${HOSTILE.long}`,
    source_url: HOSTILE.url, page_url: HOSTILE.url, session_id: HOSTILE.script, line: 1, column: 2,
  });
  await post(`csp-reports/${siteKey}`, {
    'csp-report': {
      // The directive must be one CSP knows (docs/grouping.md, "CSP violations": a report naming none is refused), so the
      // hostile text rides in the violated directive as sent and in the blocked URI.
      'document-uri': HOSTILE.url, 'violated-directive': `img-src ${HOSTILE.img}`, 'effective-directive': 'img-src', 'blocked-uri': `${HOSTILE.script}${HOSTILE.long}`,
      'source-file': HOSTILE.url, 'script-sample': HOSTILE.script, 'original-policy': all,
    },
  });
  await ingest(collector, `performance-sessions/${siteKey}`, { session_id: 'h1', page_url: `${HOSTILE.url}${HOSTILE.img}${HOSTILE.long}`, metrics: { LCP: { value: 1800 } } });
  const [stored] = await collector.exported(siteKey, 'errors');

  const { check } = watch(page);
  await signInWithForm(page, collector.url, 'owner@shop.example', password);
  await expect(page.getByRole('link', { name: HOSTILE.img, exact: false })).toBeVisible();
  await screenshots(page, 'hostile-overview');
  await page.goto(`${collector.url}/sites/${siteKey}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(HOSTILE.script);
  await expect(page.getByTestId('error-groups')).toContainText(HOSTILE.img);
  await expect(page.getByTestId('csp-groups')).toContainText(HOSTILE.script);
  await expect(page.getByTestId('pages')).toContainText(HOSTILE.url);
  // No stored URL became a link: every link on the page points to the dashboard itself.
  for (const href of await page.locator('a[href]').evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href))) {
    expect(href.startsWith(`${collector.url}/`) || href.startsWith(collector.url.replace('127.0.0.1', 'localhost'))).toBe(true);
  }
  await screenshots(page, 'hostile-site');
  await page.goto(`${collector.url}/sites/${siteKey}/errors/${stored!.fingerprint}`);
  await expect(page.locator('pre.stack')).toContainText(HOSTILE.img);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(HOSTILE.script);
  await screenshots(page, 'hostile-error-group');
  await page.goto(`${collector.url}/sites/${siteKey}/setup`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(HOSTILE.img);
  await screenshots(page, 'hostile-setup');
  expect(await page.locator('img, iframe, object, embed').count()).toBe(0);
  await check();
});

test('a user limited to one site gets 403 for another on every page and read-API call; signed out gets 401; a cookie write from another origin is refused', async ({ page, browser, collector, pages }) => {
  const mine = await collector.addSite('https://mine.example');
  const theirs = await collector.addSite('https://theirs.example');
  await ingest(collector, `error-reports/${theirs}`, { error_type: 'js', error_message: 'their secret' });
  const [theirError] = await collector.exported(theirs, 'errors');
  const password = await collector.addUser('limited@mine.example', mine);
  await signInWithForm(page, collector.url, 'limited@mine.example', password);
  await expect(page.getByRole('link', { name: mine })).toBeVisible();
  await expect(page.getByRole('link', { name: theirs })).toHaveCount(0);
  // A site with no data says what to do next: its script tag.
  await page.getByRole('link', { name: mine }).click();
  await expect(page.getByRole('heading', { name: 'Nothing received in this range' })).toBeVisible();
  await expect(page.locator('pre.snippet')).toContainText(`data-site-key="${mine}"`);

  const sitePages = (key: string) => [`/sites/${key}`, `/sites/${key}/setup`, `/sites/${key}/errors/${theirError!.fingerprint}`];
  const reads = (key: string) =>
    ['summary', 'daily', 'error-groups', `error-groups/${theirError!.fingerprint}`, 'csp-groups', 'vitals', 'pages', 'setup', 'error-reports', 'csp-reports', 'performance-sessions'].map(
      (view) => `/api/v1/sites/${key}/${view}`,
    );
  for (const path of sitePages(theirs)) {
    expect((await page.goto(`${collector.url}${path}`))!.status(), path).toBe(403);
    await expect(page.getByRole('alert')).toContainText('Forbidden');
    await expect(page.locator('body')).not.toContainText('their secret');
  }
  for (const path of reads(theirs)) {
    const response = await page.request.get(`${collector.url}${path}`);
    expect(response.status(), path).toBe(403);
    expect(await response.text()).not.toContain('their secret');
  }
  expect((await page.request.get(`${collector.url}/api/v1/sites/${mine}/summary`)).status()).toBe(200);
  expect(((await (await page.request.get(`${collector.url}/api/v1/sites`)).json()) as { data: Array<{ site_key: string }> }).data.map((site) => site.site_key)).toEqual([mine]);

  // Signed out: a fresh browser context has no cookie.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  for (const path of sitePages(mine)) {
    expect((await strangerPage.goto(`${collector.url}${path}`))!.status(), path).toBe(401);
    await expect(strangerPage.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  }
  for (const path of [...reads(mine), '/api/v1/sites']) expect((await strangerPage.request.get(`${collector.url}${path}`)).status(), path).toBe(401);
  await stranger.close();

  // A page of another origin on the same site (127.0.0.1, another port: SameSite=Strict still sends
  // the cookie) tries to sign the user out and to queue an action. The browser will not send the
  // DELETE without a preflight the collector does not grant; the POST goes as a "simple" request,
  // with the cookie, and the collector's Origin check refuses it.
  pages.route('/attack', '<!doctype html><title>attack</title>');
  const attacker = await page.context().newPage();
  await attacker.goto(`${pages.origin}/attack`);
  const outcomes = await attacker.evaluate(
    async ({ target, site }) => {
      const signOut = await fetch(`${target}/api/v1/session`, { method: 'DELETE', credentials: 'include' }).then(
        (response) => `answered ${response.status}`,
        () => 'blocked',
      );
      const queued = await fetch(`${target}/api/v1/sites/${site}/actions`, { method: 'POST', credentials: 'include', mode: 'no-cors', body: '{"type":"flush_cache"}' });
      return [signOut, queued.type];
    },
    { target: collector.url, site: mine },
  );
  expect(outcomes).toEqual(['blocked', 'opaque']);
  const db = new Database(collector.db, { readonly: true });
  expect(db.prepare('SELECT COUNT(*) AS n FROM site_actions').get()).toEqual({ n: 0 });
  db.close();
  // Still signed in.
  expect((await page.request.get(`${collector.url}/api/v1/sites/${mine}/summary`)).status()).toBe(200);
  const forged = await page.request.post(`${collector.url}/api/v1/sites/${mine}/actions`, { headers: { origin: pages.origin }, data: { type: 'flush_cache' } });
  expect(forged.status()).toBe(403);
  expect(await forged.json()).toMatchObject({ error: { code: 'csrf' } });
});

test('axe finds no serious or critical accessibility violation on any page', async ({ page, collector }) => {
  const siteKey = await collector.addSite('https://shop.example');
  const password = await collector.addUser('owner@shop.example');
  await ingest(collector, `error-reports/${siteKey}`, { error_type: 'javascript_error', error_message: 'x is not defined', stack: 'ReferenceError: x is not defined\n    at a (https://shop.example/a.js:1:1)', page_url: 'https://shop.example/' });
  await ingest(collector, `csp-reports/${siteKey}`, { 'csp-report': { 'document-uri': 'https://shop.example/', 'violated-directive': 'img-src', 'blocked-uri': 'https://cdn.example/a.png' } });
  await ingest(collector, `performance-sessions/${siteKey}`, { session_id: 'a1', page_url: 'https://shop.example/', metrics: { LCP: { value: 1800 }, CLS: { value: 0.3 }, INP: { value: 300 } } });
  const [error] = await collector.exported(siteKey, 'errors');
  const serious = async (name: string) => {
    const results = await new AxeBuilder({ page }).analyze();
    const found = results.violations.filter((violation) => violation.impact == 'serious' || violation.impact == 'critical');
    expect(found.map((violation) => `${name}: ${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  };
  await page.goto(`${collector.url}/`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await serious('sign-in');
  await signInWithForm(page, collector.url, 'owner@shop.example', password);
  await expect(page.getByTestId('errors-7d').first()).toBeVisible();
  await serious('overview');
  for (const [name, path, ready] of [
    ['site', `/sites/${siteKey}`, 'Web Vitals'],
    ['issue', `/sites/${siteKey}/errors/${error!.fingerprint}`, 'Breakdowns'],
    ['setup', `/sites/${siteKey}/setup`, 'Script tag'],
    ['docs', '/docs', 'API reference'],
  ] as const) {
    await page.goto(`${collector.url}${path}`);
    await expect(page.getByRole('heading', { name: ready })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await serious(name);
  }
  // Keyboard: the skip link comes first and moves focus to the content.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
});

test("a violation of the dashboard's own CSP is reported to this collector, under its dashboard site", async ({ page, collector }) => {
  const password = await collector.addUser('owner@shop.example');
  await signInWithForm(page, collector.url, 'owner@shop.example', password);
  // A resource from another host, as an injected image would be: the policy blocks it and reports.
  await page.evaluate(() => {
    const image = document.createElement('img');
    image.alt = '';
    image.src = 'https://blocked.invalid/pixel.png';
    document.body.append(image);
  });
  const stored = () => collector.exported('dashboard', 'csp');
  await expect.poll(stored, { timeout: 30_000 }).toHaveLength(1);
  expect((await stored())[0]).toMatchObject({ report_type: 'csp-violation', effective_directive: 'img-src', blocked_host: 'blocked.invalid' });
});
