import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CLI } from '../collector/testing/spawnCollector';
import { atBothWidths, ingest, signInWithForm } from './dashboardKit';
import { expect, test } from './fixtures';
import { buildShopApp, SHOP_PAGE_SCRIPT, sourcePosition } from './stackApp/buildShopApp';

// The issue page's stack view (docs/dashboard.md, "Issues"; docs/source-maps.md): a minified app's
// error, its build's maps uploaded by `sitebeacon sourcemaps upload`, read in the code as written.
test.describe.configure({ timeout: 120_000 });

const run = promisify(execFile);
/** Where this spec's screenshots land: test-results/dashboard-stacks/NAME-WIDTH.png (kept after the run). */
const SHOTS = fileURLToPath(new URL('../test-results/dashboard-stacks/', import.meta.url));
const RELEASE = '2.0.0';
const HOSTILE = { script: '<script>window.pwned = 1</script>', img: '<img src="x" onerror="window.pwned = 2">' };

test("the issue page shows a minified app's stack in the source's words: the site's frames with their lines, libraries folded, the raw stack behind a click, the source's markup as text", async ({ page, collector, pages }) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-stacks-'));
  try {
    const build = await buildShopApp(join(dir, 'dist'));
    const site = await collector.addSite(pages.origin);
    const password = await collector.addUser('owner@shop.example');

    // The app throws in Chromium; the page keeps the error's stack as the browser wrote it.
    pages.route('/stack-app/', '<!doctype html><title>shop app</title><button id="pay">pay</button><script src="/stack-app/app.min.js"></script><script src="/stack-app/page.js"></script>');
    pages.route('/stack-app/app.min.js', readFileSync(build.bundle, 'utf8'), { 'content-type': 'text/javascript' });
    pages.route('/stack-app/page.js', SHOP_PAGE_SCRIPT, { 'content-type': 'text/javascript' });
    await page.addInitScript(() => addEventListener('error', (event) => ((window as { thrown?: string }).thrown = (event.error as Error).stack)));
    await page.goto(`${pages.origin}/stack-app/`);
    await page.click('#pay');
    const stack = await page.waitForFunction(() => (window as { thrown?: string }).thrown).then((handle) => handle.jsonValue() as Promise<string>);
    // Sent as a desktop Chrome's beacon would send it: headless Chromium's own user agent is a bot's (docs/issues.md, "Bots").
    const report = { error_type: 'javascript_error', error_name: 'TypeError', error_message: 'checkout total has no currency', stack, page_url: `${pages.origin}/stack-app/`, session_id: 's-pay', release: RELEASE };
    await ingest(collector, `error-reports/${site}`, [report]);
    const [stored] = await collector.exported(site, 'errors');

    // The build's maps, uploaded after the report arrived by the real CLI with a key of the site.
    const { api_key: apiKey } = JSON.parse((await collector.cli('key', 'create', '--site', site, '--json')).stdout) as { api_key: string };
    const upload = ['sourcemaps', 'upload', '--site', site, '--release', RELEASE, '--url-prefix', '~/stack-app/', '--collector', collector.url, join(dir, 'dist')];
    const { stdout } = await run(process.execPath, [CLI, ...upload], { env: { ...process.env, SITEBEACON_API_KEY: apiKey } });
    expect(stdout).toContain('uploaded app.min.js.map as ~/stack-app/app.min.js');

    const consoleErrors: string[] = [];
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as { violations?: string[] }).violations = seen;
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI}`));
    });
    await signInWithForm(page, collector.url, 'owner@shop.example', password);
    await page.goto(`${collector.url}/sites/${site}/errors/${stored!.fingerprint}`);
    page.on('console', (message) => message.type() == 'error' && consoleErrors.push(message.text()));
    page.on('pageerror', (error) => consoleErrors.push(error.message));

    // The latest event's stack is open; its first frame is the source's function, file, line and column.
    const view = page.locator('details[open] .stack-view').first();
    await expect(view.getByTestId('frames-mapped')).toHaveText(`6 of 7 frames mapped by release ${RELEASE}'s source maps.`);
    const frames = view.locator(':scope > ol.frames > li');
    const thrown = sourcePosition('src/format.js', 'new TypeError');
    await expect(frames.first().locator('.frame-head')).toHaveText(`formatTotal src/format.js:${thrown.line}:${thrown.column}`);
    await expect(frames.first().locator('li.failing')).toHaveText("Failing line:     throw new TypeError('checkout total has no currency');");
    await expect(frames.first().locator('ol.context')).toHaveAttribute('start', String(thrown.line - 3));
    const called = sourcePosition('src/cart.js', 'formatTotal(total');
    await expect(frames.nth(1).locator('.frame-head')).toHaveText(`checkout src/cart.js:${called.line}:${called.column}`);
    // The source's markup is shown as the text it is: no element made of it, nothing ran.
    await expect(frames.first().locator('ol.context')).toContainText(HOSTILE.script);
    await expect(frames.first().locator('ol.context')).toContainText(HOSTILE.img);
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();

    // The vendored library's two frames folded after the site's three; pay() and the page's script after them.
    await expect(frames).toHaveCount(6);
    const library = frames.nth(3);
    await expect(library.locator('summary')).toHaveText('Show 2 library frames');
    await expect(library.locator('.frame-head')).toHaveCount(2);
    for (const head of await library.locator('.frame-head').all()) await expect(head).toBeHidden();
    // The page's own script has no map in the release: it says so.
    await expect(frames.last().getByTestId('unmapped')).toHaveText(`Not mapped: no source map for release ${RELEASE} and this file.`);
    // The raw stack, as the browser wrote it, one click away.
    const raw = view.locator('details.raw pre.stack');
    await expect(raw).toBeHidden();
    await atBothWidths(page, SHOTS, 'issue-stack');

    await library.locator('summary').click();
    await expect(library.locator('.frame-head')).toHaveText([/^applyStep vendor\/steps\.js:\d+:\d+$/, /^runSteps vendor\/steps\.js:\d+:\d+$/]);
    await view.getByText('Raw stack', { exact: true }).click();
    await expect(raw).toBeVisible();
    await expect(raw).toHaveText(stack);
    await atBothWidths(page, SHOTS, 'issue-stack-unfolded');

    expect(await page.evaluate(() => (window as { violations?: string[] }).violations)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
