import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { findChromium } from '../../e2e/chromium.mjs';

// Issue 16, "Done when": the package as npm ships it. `npm pack` the project, install the tarball
// and @playwright/test into a fresh project (playwright/pack/project/: a QA team's specs, which
// know sitebeacon only as `sitebeacon/playwright`), type-check it, run its specs in Chromium, and
// check the outcome of each: the clean page passes, the throwing page's toHaveNoErrors() fails
// naming the error, toHaveReceivedError passes. Run after `npm run build` (`npm test` does).
const root = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);
const versionOf = (name: string) => (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;

const work = mkdtempSync(join(tmpdir(), 'sitebeacon-pack-'));
const project = join(work, 'project');
const npm = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * better-sqlite3 builds a native addon at install. With no access to its prebuilt binaries (this
 * machine and CI reach the npm registry only), that is a compile of SQLite, minutes long. The addon
 * this project already built from the same version is handed to prebuild-install as a local
 * prebuild (its `npm_config_<name>_local_prebuilds` setting), so the install takes what a machine
 * with a download cache would. A different version than ours finds none and compiles: slower, same result.
 */
const localPrebuilds = () => {
  const dir = join(work, 'prebuilds');
  mkdirSync(dir);
  const addon = join(root, 'node_modules/better-sqlite3');
  if (existsSync(join(addon, 'build/Release/better_sqlite3.node'))) {
    const name = `better-sqlite3-v${versionOf('better-sqlite3')}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
    execFileSync('tar', ['-czf', join(dir, name), '-C', addon, 'build/Release/better_sqlite3.node']);
  }
  return dir;
};

beforeAll(() => {
  if (!existsSync(join(root, 'dist/playwright.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const tarball = npm(['pack', '--pack-destination', work, '--silent'], root).trim().split('\n').pop()!;
  cpSync(fileURLToPath(new URL('./project/', import.meta.url)), project, { recursive: true });
  npm(
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      join(work, tarball),
      `@playwright/test@${versionOf('@playwright/test')}`,
      `better-sqlite3@${versionOf('better-sqlite3')}`,
      `typescript@${versionOf('typescript')}`,
      `@types/node@${versionOf('@types/node')}`,
    ],
    project,
    { npm_config_better_sqlite3_local_prebuilds: localPrebuilds() },
  );
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

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
