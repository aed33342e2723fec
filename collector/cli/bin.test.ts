// The `sitebeacon` bin as npm installs it, run as a process: collector/cli.ts and serve's thread
// (collector/serveThread.ts) bundled from the current sources as rollup.config.mjs lays them out
// (dist/cli.js, dist/serveThread.js, dist/chunks/), inside a package folder named sitebeacon with
// the repository's package.json. `serve --help` goes through serve's own thread there.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';
import ts from 'typescript';
import { afterAll, beforeAll, expect, test } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

let dir: string;
let cli: string;

/** Bundles the bin into PACKAGE/dist: TypeScript transpiled, every package left to node_modules. */
const bundleBin = async (pkg: string) => {
  const bundle = await rollup({
    input: { cli: join(ROOT, 'collector/cli.ts'), serveThread: join(ROOT, 'collector/serveThread.ts') },
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && (id.startsWith('node:') || builtinModules.includes(id) || !id.includes(':')),
    plugins: [
      {
        name: 'typescript-transpile',
        resolveId(source, importer) {
          if (!importer || !source.startsWith('.')) return null;
          const base = resolve(dirname(importer), source);
          return [`${base}.ts`, `${base}.tsx`, resolve(base, 'index.ts'), base].find((file) => existsSync(file) && statSync(file).isFile()) ?? null;
        },
        transform(code, id) {
          if (!/\.tsx?$/.test(id)) return null;
          const output = ts.transpileModule(code, {
            compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true, jsx: ts.JsxEmit.ReactJSX, jsxImportSource: 'preact' },
            fileName: id,
          });
          return { code: output.outputText, map: null };
        },
      },
    ],
    onwarn: () => {},
  });
  await bundle.write({ dir: join(pkg, 'dist'), format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' });
  await bundle.close();
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-bin-'));
  // An installed package: PREFIX/node_modules/sitebeacon, its dependencies beside it.
  const pkg = join(dir, 'prefix', 'node_modules', 'sitebeacon');
  mkdirSync(pkg, { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  await bundleBin(pkg);
  cli = join(pkg, 'dist', 'cli.js');
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sitebeacon = (...args: string[]) => {
  const run = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir, env: { PATH: process.env.PATH }, timeout: 30_000 });
  return { code: run.status, out: run.stdout, err: run.stderr };
};

test('sitebeacon --version and -v print the version of the package.json beside dist/', () => {
  expect(sitebeacon('--version')).toEqual({ code: 0, out: `${version}\n`, err: '' });
  expect(sitebeacon('-v')).toEqual({ code: 0, out: `${version}\n`, err: '' });
});

test('serve --help, on its thread, prints its help and exits 0 without making a database or listening', () => {
  const db = join(dir, 'data', 'sitebeacon.db');
  const { code, out, err } = sitebeacon('serve', '--port', '0', '--demo', '--help', '--db', db);
  expect({ code, err }).toEqual({ code: 0, err: '' });
  expect(out).toContain('Usage: sitebeacon serve [options]');
  expect(out).toContain('SITEBEACON_RETENTION_DAYS');
  expect(existsSync(join(dir, 'data'))).toBe(false);
  // The default database location (./data/sitebeacon.db) is not made either.
  expect(sitebeacon('site', 'add', '--origin', 'https://x.example', '--help').code).toBe(0);
  expect(existsSync(join(dir, 'data'))).toBe(false);
});

test('an unknown flag exits 2 and names it on stderr, serve (on its thread) as every other command', () => {
  for (const argv of [['serve', '--bogus'], ['site', 'add', '--origin', 'https://x.example', '--bogus']]) {
    const { code, out, err } = sitebeacon(...argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('Unknown option --bogus');
  }
  expect(existsSync(join(dir, 'data'))).toBe(false);
});
