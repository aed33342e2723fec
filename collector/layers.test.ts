import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

// No import from a lower layer to a higher one (ARCHITECTURE.md, "The folders"). A folder may import from the folders
// listed for it (and from itself); test kits and tests are outside the layering.
const root = dirname(fileURLToPath(import.meta.url));
const MAY_IMPORT: Record<string, string[]> = {
  core: [],
  schemas: ['core'],
  store: ['core'],
  openapi: ['http'],
  http: ['core', 'schemas', 'store'],
  agents: ['core'],
  check: ['core'],
  routes: ['core', 'schemas', 'store', 'http', 'openapi', 'agents'],
  cli: ['core', 'schemas', 'store', 'agents', 'check', 'app.ts', 'listen.ts'],
};

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name == 'testing' || entry.name == 'fixtures' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.contract.ts') ? [path] : [];
  });

/** The layer of a collector path: its first folder, or the file itself at the top. */
const layerOf = (path: string) => relative(root, path).split('/')[0]!;

test('collector layers import only downward', () => {
  const violations: string[] = [];
  for (const file of sourceFiles(root)) {
    const layer = layerOf(file);
    const allowed = MAY_IMPORT[layer];
    if (!allowed) continue;
    for (const [, source] of readFileSync(file, 'utf8').matchAll(/\bfrom\s+['"](\.[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), source!);
      // The wire format is shared with the beacon on purpose (beacon/lib/wire.ts), and so is the
      // early-capture stub the snippet carries (beacon/lib/earlyStub.ts, docs/early-capture.md).
      if (target == resolve(root, '../beacon/lib/wire') || target == resolve(root, '../beacon/lib/earlyStub')) continue;
      const targetLayer = layerOf(target.endsWith('.ts') ? target : `${target}.ts`);
      if (targetLayer != layer && !allowed.includes(targetLayer)) violations.push(`${relative(root, file)} -> ${source}`);
    }
  }
  expect(violations).toEqual([]);
});
