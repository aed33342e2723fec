import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject, test } from 'vitest';
import { findChromium } from '../../e2e/chromium.mjs';

// The package as npm ships it, to a QA team: the packed tarball and @playwright/test installed
// into a fresh project (installPacked.ts; playwright/pack/project/: a QA team's specs, which know
// sitebeacon only as `sitebeacon/playwright`), type-checked, its specs run in Chromium, and the
// outcome of each checked: the clean page passes, the throwing page's toHaveNoErrors() fails
// naming the error, toHaveReceivedError passes. Run after `npm run build` (`npm test` does).
const project = inject('packProject');

test('the installed package ships sitebeacon/playwright and its types', () => {
  const installed = join(project, 'node_modules/sitebeacon');
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { exports: Record<string, unknown>; peerDependencies: object };
  expect(manifest.exports['./playwright']).toEqual({ types: './dist/playwright.d.ts', import: './dist/playwright.js' });
  expect(manifest.peerDependencies).toHaveProperty('@playwright/test');
  expect(readdirSync(join(installed, 'dist'))).toEqual(expect.arrayContaining(['playwright.js', 'playwright.d.ts', 'playwright.beacon.js', 'beacon.min.js']));
  // The QA project's specs type-check against the published types (nodenext resolution).
  const typecheck = () => spawnSync(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', project], { encoding: 'utf8' });
  const good = typecheck();
  expect(good.stdout + good.stderr).toBe('');
  expect(good.status).toBe(0);
  // And the types are real: a matcher's wrong argument does not compile.
  const bad = join(project, 'wrong.ts');
  writeFileSync(bad, "import { expect, test } from 'sitebeacon/playwright';\ntest('x', async ({ beacon }) => expect(beacon).toHaveVitals({ LCP: { above: 1 } }));\n");
  try {
    expect(typecheck().stdout).toMatch(/wrong\.ts\(2,\d+\): error TS2353: Object literal may only specify known properties, and 'above'/);
  } finally {
    rmSync(bad);
  }
});

test('a QA project runs its specs: the clean page passes, the throwing page fails toHaveNoErrors naming the error and passes toHaveReceivedError', { timeout: 180_000 }, () => {
  const run = spawnSync(process.execPath, [join(project, 'node_modules/@playwright/test/cli.js'), 'test', '--reporter=json'], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, QA_CHROMIUM: findChromium() ?? '', CI: '1', FORCE_COLOR: '0' },
    maxBuffer: 64 * 1024 * 1024,
  });
  // One test fails on purpose: Playwright exits 1.
  expect(run.status, run.stderr).toBe(1);
  const report = JSON.parse(run.stdout) as {
    suites: Array<{ specs: Array<{ title: string; tests: Array<{ results: Array<{ status: string; error?: { message?: string } }> }> }> }>;
  };
  const results = Object.fromEntries(report.suites.flatMap((suite) => suite.specs).map((spec) => [spec.title, spec.tests[0]!.results[0]!]));
  expect(Object.keys(results)).toHaveLength(3);
  expect(results['the home page has no errors and no CSP violations']!.status, results['the home page has no errors and no CSP violations']!.error?.message).toBe('passed');
  expect(results['the checkout reports its broken payment form']!.status, results['the checkout reports its broken payment form']!.error?.message).toBe('passed');
  const failed = results['the checkout has no errors']!;
  expect(failed.status).toBe('failed');
  const message = failed.error!.message!.replace(/\u001b\[[\d;]*m/g, '');
  expect(message).toContain('expect(beacon).toHaveNoErrors()');
  expect(message).toContain('Received: 1 error report');
  expect(message).toMatch(/1\. TypeError: payment form is broken\n {5}type javascript_error, source http:\/\/127\.0\.0\.1:\d+\/checkout:1:\d+, page http:\/\/127\.0\.0\.1:\d+\/checkout/);
});
