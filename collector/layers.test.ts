import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { importCycles, importsOf, sourceFilesUnder } from './testing/importGraph';

// The layers import downward only (ARCHITECTURE.md, "The folders"): a collector folder, or a file
// at the top, may import from itself and from the layers listed for it. A new folder gets its row
// here before its first file is merged, which is the one place its place is decided.
const root = dirname(fileURLToPath(import.meta.url));
const repository = resolve(root, '..');
const MAY_IMPORT: Record<string, readonly string[]> = {
  core: [],
  schemas: ['core'],
  store: ['core'],
  agents: ['core'],
  check: ['core'],
  // Alert delivery (docs/alerts.md): the channels' I/O over core/alerts/'s rules, and the outbox's delivery from the store.
  alerts: ['core', 'store'],
  // Source maps off the HTTP thread (docs/source-maps.md, "Limits"): the map thread, its client, ingest's index of positions.
  sourcemaps: ['core', 'store'],
  http: ['core', 'schemas', 'store'],
  openapi: ['core', 'schemas', 'http'],
  // The read views between a route and the store (one function per view).
  reads: ['core', 'schemas', 'store', 'sourcemaps'],
  routes: ['core', 'schemas', 'store', 'http', 'openapi', 'agents', 'reads', 'sourcemaps'],
  // The app hands the alerts API its sending (a rule's test, a webhook's target check) from alerts/.
  'app.ts': ['core', 'schemas', 'store', 'http', 'routes', 'agents', 'alerts'],
  'listen.ts': ['http'],
  cli: ['core', 'schemas', 'store', 'agents', 'check', 'alerts', 'app.ts', 'listen.ts'],
  'main.ts': ['cli'],
  'cli.ts': ['cli', 'main.ts'],
  'serveThread.ts': ['main.ts'],
  'index.ts': ['core', 'store', 'app.ts'],
};
// The wire format is shared with the beacon on purpose (beacon/lib/wire.ts), and so is the
// early-capture stub the snippet carries (beacon/lib/earlyStub.ts, docs/early-capture.md).
const SHARED_WITH_BEACON = ['beacon/lib/wire.ts', 'beacon/lib/earlyStub.ts'];

/** A path relative to the repository, with forward slashes. */
const repositoryPath = (path: string) => relative(repository, path).split(sep).join('/');
/** Test code: tests (*.test.ts), and test kits (a testing/ folder at any depth, contract suites). */
const isTest = (path: string) => /\.test\.tsx?$/.test(path);
const isTestKit = (path: string) => path.split('/').includes('testing') || path.endsWith('.contract.ts');
const isSource = (path: string) => !isTest(path) && !isTestKit(path);
/** The layer of a collector path (relative to the repository): its first folder under collector/, or the file itself at the top. */
const layerOf = (path: string) => (path.startsWith('collector/') ? path.split('/')[1]! : undefined);

/**
 * What one import breaks, if anything (paths relative to the repository): a source file that
 * imports test code, a test kit that imports a test, a collector file that imports a higher layer
 * or a layer with no row, or the beacon beyond what it shares.
 */
const importViolation = (from: string, to: string): string | undefined => {
  if (isTest(from)) return undefined;
  if (isTest(to)) return `${from} -> ${to}: imports a test`;
  if (isTestKit(from)) return undefined;
  if (isTestKit(to)) return `${from} -> ${to}: source imports a test kit`;
  const layer = layerOf(from);
  if (layer === undefined) return undefined;
  if (!MAY_IMPORT[layer]) return `${from}: collector/${layer} has no place in the layers (MAY_IMPORT)`;
  const target = layerOf(to);
  if (target === undefined) return SHARED_WITH_BEACON.includes(to) ? undefined : `${from} -> ${to}: outside the collector`;
  if (target != layer && !MAY_IMPORT[layer]!.includes(target)) return `${from} -> ${to}: ${layer} may not import ${target}`;
  return undefined;
};

const files = [...sourceFilesUnder(root, ['node_modules']), ...sourceFilesUnder(resolve(repository, 'dashboard'), ['node_modules'])];
const graph = new Map(files.map((file) => [file, importsOf(file)]));

describe('layers', () => {
  test('collector layers import only downward, source never imports test code, and test kits import no test', () => {
    const violations = [...graph].flatMap(([from, targets]) =>
      targets.map((to) => importViolation(repositoryPath(from), repositoryPath(to))).filter((violation) => violation !== undefined),
    );
    expect(violations).toEqual([]);
  });

  test('every collector folder and file at the top has its row in the layers', () => {
    const layers = files.map(repositoryPath).filter(isSource).map(layerOf).filter((layer) => layer !== undefined);
    expect([...new Set(layers)].filter((layer) => !MAY_IMPORT[layer])).toEqual([]);
  });

  test('contract suites are test kits: they live under a testing/ folder, outside the built package', () => {
    expect(files.map(repositoryPath).filter((path) => path.endsWith('.contract.ts') && !path.split('/').includes('testing'))).toEqual([]);
  });

  test('no import cycle among collector/ and dashboard/ files, type imports included', () => {
    expect(importCycles(graph).map((cycle) => cycle.map(repositoryPath))).toEqual([]);
  });

  // The checks above pass today; these show that each would fail on what it looks for.
  test('an import up the layers, of test code, or from a folder with no place is a violation', () => {
    expect(importViolation('collector/store/sqlite.ts', 'collector/http/route.ts')).toMatch(/store may not import http/);
    expect(importViolation('collector/core/records.ts', 'collector/testing/seed.ts')).toMatch(/source imports a test kit/);
    expect(importViolation('collector/testing/seed.ts', 'collector/store/sqlite.test.ts')).toMatch(/imports a test/);
    expect(importViolation('collector/newFolder/thing.ts', 'collector/core/records.ts')).toMatch(/no place in the layers/);
    expect(importViolation('collector/core/records.ts', 'dashboard/types.ts')).toMatch(/outside the collector/);
    expect(importViolation('collector/routes/health.ts', 'collector/store/contract.ts')).toBeUndefined();
    expect(importViolation('collector/testing/seed.ts', 'collector/store/contract.ts')).toBeUndefined();
  });

  test('a cycle is found however long, and a chain is none; an import type is an import', () => {
    const sparkline = resolve(repository, 'dashboard/components/Sparkline.tsx');
    expect(importsOf(sparkline)).toContain(resolve(repository, 'dashboard/components/chartLine.ts'));
    const chain = new Map([['a', ['b']], ['b', ['c']], ['c', []]]);
    expect(importCycles(chain)).toEqual([]);
    const long = new Map([['a', ['b']], ['b', ['c']], ['c', ['d']], ['d', ['b']], ['e', ['a']]]);
    expect(importCycles(long)).toEqual([['b', 'c', 'd']]);
    expect(importCycles(new Map([['self', ['self']]]))).toEqual([['self']]);
  });
});
