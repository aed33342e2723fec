import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { CHROMIUM_ARGS, findChromium } from '../../e2e/chromium.mjs';

// The package as npm ships it, to an app: the SPA in playwright/pack/spa/ imports `sitebeacon` and
// `sitebeacon/attribution` from the packed tarball (installPacked.ts) and is built, minified, by two
// bundlers from the registry, rollup and esbuild, as an app's production build is. Each bundle runs
// in Chromium against the installed package's own collector (`sitebeacon serve`), and what counts is
// what that collector stored (`sitebeacon export`), as in the e2e tests (ARCHITECTURE.md, "Tests"):
// the build of the ES module entries must keep working once an app's bundler has taken it apart,
// tree-shaken and minified it again (their shared chunk and entries agree on mangled property names).
const project = inject('packProject');
const spa = join(project, 'spa');
const sitebeacon = join(project, 'node_modules/.bin/sitebeacon');
const run = promisify(execFile);

const BUNDLERS = ['rollup', 'esbuild'] as const;
const ENTRIES = ['main', 'attribution'] as const;
const bundlePath = (bundler: (typeof BUNDLERS)[number], entry: (typeof ENTRIES)[number]) => join(spa, 'dist', bundler, `${entry}.js`);
const builds: Record<string, { stdout: string; stderr: string }> = {};

/** `sitebeacon serve` from the installed package, on a random port with a fresh SQLite file. */
const startCollector = async (db: string) => {
  const child = spawn(sitebeacon, ['serve', '--json', '--port', '0', '--host', '127.0.0.1', '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    // `serve --json` prints one line, {"url": ...}, once it listens.
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      const [line, rest] = stdout.split('\n', 2);
      if (rest !== undefined) resolve((JSON.parse(line!) as { url: string }).url);
    });
    exited.then(() => reject(new Error(`sitebeacon serve exited: ${stdout}${stderr}`)));
  });
  const cli = async (...args: string[]) => (await run(sitebeacon, [...args, '--db', db], { encoding: 'utf8' })).stdout;
  return {
    origin: new URL(url).origin,
    cli,
    /** What the collector stored, as NDJSON records. */
    exported: async (siteKey: string, kind: 'errors' | 'csp' | 'performance') =>
      (await cli('export', '--site', siteKey, '--kind', kind))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, any>),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
};

/**
 * The shop on a second loopback origin: /shop is spa/index.html with its settings, under a policy
 * that allows the collector (connect-src) and blocks other origins' images (the shop's tracking
 * pixel); /assets/app.js is the bundle.
 */
const servePages = async (bundle: string) => {
  let page = '';
  let policy = '';
  const server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    if (path == '/shop') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': policy }).end(page);
    if (path == '/assets/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(bundle));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    /** What /shop serves: index.html reporting to `siteKey` at `ingestOrigin`. */
    publish(siteKey: string, ingestOrigin: string) {
      policy = `default-src 'self'; connect-src 'self' ${ingestOrigin}; img-src 'self'`;
      page = readFileSync(join(spa, 'index.html'), 'utf8')
        .replace('{{siteKey}}', siteKey)
        .replace('{{ingestOrigin}}', ingestOrigin)
        .replace('{{bundle}}', '/assets/app.js');
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
};

let browser: Browser;

beforeAll(async () => {
  // Both bundlers at once, each building both entries: rollup with spa/rollup.config.mjs (terser),
  // esbuild with --minify; neither splits the entries, so each bundle is all its page loads.
  const [rollup, esbuild] = await Promise.all([
    run(join(project, 'node_modules/.bin/rollup'), ['-c', 'rollup.config.mjs'], { cwd: spa, encoding: 'utf8' }),
    run(
      join(project, 'node_modules/.bin/esbuild'),
      ['main.js', 'attribution.js', '--bundle', '--minify', '--format=esm', '--target=es2020', '--outdir=dist/esbuild'],
      { cwd: spa, encoding: 'utf8' },
    ),
  ]);
  Object.assign(builds, { rollup, esbuild });
  browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
}, 120_000);

afterAll(() => browser?.close());

test('rollup and esbuild bundle the SPA from the installed package without a warning, and only the attribution entry carries web-vitals/attribution', () => {
  // rollup prints each created bundle on stderr, and a warning as "(!) ..."; esbuild a warning as "▲ [WARNING]".
  expect(builds.rollup!.stderr).not.toContain('(!)');
  expect(builds.esbuild!.stderr).not.toContain('WARNING');
  for (const bundler of BUNDLERS) {
    // web-vitals/attribution's field, which the default entry's vitals() has no use for.
    expect(readFileSync(bundlePath(bundler, 'main'), 'utf8')).not.toContain('interactionTarget');
    expect(readFileSync(bundlePath(bundler, 'attribution'), 'utf8')).toContain('interactionTarget');
  }
});

const BUNDLES = BUNDLERS.flatMap((bundler) =>
  ENTRIES.map((entry) => [`${bundler}, minified, ${entry}.js`, entry == 'attribution' ? ', LCP and INP naming their elements' : '', bundler, entry] as const),
);

// One bundle after the other (a test machine may have two cores): each with its own collector, page
// server and browser context.
test.for(BUNDLES)(
  "%s: the collector stores the app's error, its CSP violation and one performance session with LCP, FCP, TTFB, CLS and INP%s",
  async ([, , bundler, entry]) => {
    const attribution = entry == 'attribution';
    const pages = await servePages(bundlePath(bundler, entry));
    const collector = await startCollector(join(project, `${bundler}-${entry}.db`)).catch(async (error) => {
      await pages.close();
      throw error;
    });
    const context = await browser.newContext();
    try {
      const siteKey = (JSON.parse(await collector.cli('site', 'add', '--origin', pages.origin, '--json')) as { site_key: string }).site_key;
      pages.publish(siteKey, collector.origin);
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));

      await page.goto(`${pages.origin}/shop`);
      // The banner pushed the content down after load (CLS), before any input (a shift within 500 ms
      // after input does not count); then a click on a slow handler (INP).
      await page.locator('#banner').waitFor();
      await page.click('#add');
      await expect.poll(() => page.textContent('#cart')).toBe('1 item');
      // web-vitals handles event timing entries when idle: give INP a moment (as e2e/beacon.spec.ts).
      await page.waitForTimeout(1000);
      // Headless Chromium keeps tabs visible: leaving the page hides it, and the beacon sends the
      // session's final values.
      await page.goto('about:blank');

      // Everything stored, read at once (each `sitebeacon export` is a process): the error and the
      // violation went in requests of their own, and may land before or after the session's last update.
      const stored = async () => {
        const [performance, errors, csp] = await Promise.all((['performance', 'errors', 'csp'] as const).map((kind) => collector.exported(siteKey, kind)));
        return { performance: performance!, javascriptErrors: errors!.filter((record) => record.error_type == 'javascript_error'), csp: csp! };
      };
      const counts = ({ performance, javascriptErrors, csp }: Awaited<ReturnType<typeof stored>>) => ({
        metrics: performance.map((session) => Object.keys(session.metrics).sort()),
        javascriptErrors: javascriptErrors.length,
        csp: csp.length,
      });
      await expect
        .poll(async () => counts(await stored()), { timeout: 10_000 })
        .toEqual({ metrics: [['CLS', 'FCP', 'INP', 'LCP', 'TTFB']], javascriptErrors: 1, csp: 1 });
      const { performance, javascriptErrors, csp } = await stored();

      const [session] = performance;
      const metrics = session!.metrics as Record<string, { value: number; attribution?: Record<string, string> }>;
      expect(session).toMatchObject({ page_url: `${pages.origin}/shop`, navigation_type: 'navigate' });
      expect(metrics.LCP!.value).toBeGreaterThan(0);
      expect(metrics.CLS!.value).toBeGreaterThan(0);
      expect(metrics.INP!.value).toBeGreaterThanOrEqual(100);
      if (attribution) {
        // web-vitals' selectors: an element with an id is named by it.
        expect(metrics.LCP!.attribution).toMatchObject({ target: '#hero' });
        expect(metrics.INP!.attribution).toMatchObject({ interactionTarget: '#add' });
      } else {
        for (const metric of Object.values(metrics)) expect(metric).not.toHaveProperty('attribution');
      }
      expect(javascriptErrors[0]).toMatchObject({
        error_name: 'TypeError',
        error_message: 'the cart failed to render',
        source_url: `${pages.origin}/assets/app.js`,
        page_url: `${pages.origin}/shop`,
      });
      // One page view, one context: errors() and vitals() read the session of the same init().
      expect(javascriptErrors[0]!.session_id).toBe(session!.session_id);
      expect(csp[0]).toMatchObject({
        document_uri: `${pages.origin}/shop`,
        effective_directive: 'img-src',
        blocked_uri: 'https://tracker.example/pixel.gif',
        disposition: 'enforce',
      });
      expect(pageErrors).toEqual(['the cart failed to render']);
    } finally {
      await context.close();
      await collector.stop();
      await pages.close();
    }
  },
);
