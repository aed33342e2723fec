import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const repository = fileURLToPath(new URL('../..', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [path] : [];
  });
/** Each import of a file: whether it is `import type`, and the repository path it names. */
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^import (type )?[^;]*?from '(\.[^']+)'/gms)].map(([, type, source]) => ({
    type: !!type,
    target: relative(repository, resolve(file, '..', source!)),
  }));

test("the dashboard takes the collector's types with `import type` only (no byte of the collector in its bundle), and its one runtime import is the typed path helper", () => {
  const runtime = sources(join(repository, 'dashboard')).flatMap((file) =>
    importsOf(file)
      .filter(({ type, target }) => !type && target.startsWith('collector/') && target != 'collector/routes/apiPath')
      .map(({ target }) => `${relative(repository, file)} -> ${target}`),
  );
  expect(runtime).toEqual([]);
  // The helper itself brings nothing of the collector along.
  expect(importsOf(join(repository, 'collector/routes/apiPath.ts')).filter(({ type }) => !type)).toEqual([]);
});

test('no client declares the read API types by hand: dashboard/types.ts is gone', () => {
  expect(sources(join(repository, 'dashboard')).map((file) => relative(repository, file))).not.toContain('dashboard/types.ts');
});
