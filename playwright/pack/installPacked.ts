import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The fresh project the packed tarball was installed into: the QA team's specs at its root
     * (playwright/pack/project/), the SPA's sources in spa/ (playwright/pack/spa/).
     */
    packProject: string;
  }
}

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The version of `name` in our package-lock.json: what this project installed and tests with. */
const versionOf = (name: string) => {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
  return lock.packages[`node_modules/${name}`]!.version;
};
const run = promisify(execFile);
const npm = async (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  (await run('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 })).stdout;

/**
 * The bundlers an app builds the SPA with, pinned: rollup and its plugins at the versions of our
 * own package-lock.json (terser too, which @rollup/plugin-terser runs), and esbuild, which we do not
 * otherwise use. Licences: MIT, terser BSD-2-Clause.
 */
const BUNDLERS = ['rollup', '@rollup/plugin-node-resolve', '@rollup/plugin-terser', 'terser'];
const ESBUILD = 'esbuild@0.28.2';

/**
 * better-sqlite3 builds a native addon at install. With no access to its prebuilt binaries (this
 * machine and CI reach the npm registry only), that is a compile of SQLite, minutes long. The addon
 * this project already built from the same version is handed to prebuild-install as a local
 * prebuild (its `npm_config_<name>_local_prebuilds` setting), so the install takes what a machine
 * with a download cache would. A different version than ours finds none and compiles: slower, same result.
 */
const localPrebuilds = (work: string) => {
  const dir = join(work, 'prebuilds');
  mkdirSync(dir);
  const addon = join(root, 'node_modules/better-sqlite3');
  if (existsSync(join(addon, 'build/Release/better_sqlite3.node'))) {
    const name = `better-sqlite3-v${versionOf('better-sqlite3')}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
    execFileSync('tar', ['-czf', join(dir, name), '-C', addon, 'build/Release/better_sqlite3.node']);
  }
  return dir;
};

/**
 * vitest globalSetup of `npm run test:pack`: `npm pack` this project once, and install the tarball
 * from the registry's point of view, as a user does, into one fresh project that both test files
 * use: with @playwright/test for the QA team's specs (pack.test.ts), and with rollup and esbuild for
 * the SPA (spa.test.ts). Removed after the last test, pass or fail. Run after `npm run build`.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(join(root, 'dist/playwright.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const work = mkdtempSync(join(tmpdir(), 'sitebeacon-pack-'));
  const teardown = () => rmSync(work, { recursive: true, force: true });
  try {
    const tarball = (await npm(['pack', '--pack-destination', work, '--silent'], root)).trim().split('\n').pop()!;
    const installed = join(work, 'project');
    cpSync(fileURLToPath(new URL('./project/', import.meta.url)), installed, { recursive: true });
    cpSync(fileURLToPath(new URL('./spa/', import.meta.url)), join(installed, 'spa'), { recursive: true });
    await npm(
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
        ...BUNDLERS.map((name) => `${name}@${versionOf(name)}`),
        ESBUILD,
      ],
      installed,
      { npm_config_better_sqlite3_local_prebuilds: localPrebuilds(work) },
    );
    project.provide('packProject', installed);
  } catch (error) {
    teardown();
    throw error;
  }
  return teardown;
}
