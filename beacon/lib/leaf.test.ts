import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

// lib/ holds leaf helpers (ARCHITECTURE.md, "The folders"); importing from above would make a cycle.
test('beacon/lib/ imports nothing from outside lib/', () => {
  const dir = new URL('./', import.meta.url);
  const upward = readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) =>
      [...readFileSync(new URL(name, dir), 'utf8').matchAll(/\bfrom\s+['"]([^'"]+)['"]/g)]
        .map((match) => match[1]!)
        .filter((source) => source.startsWith('..'))
        .map((source) => `${name}: ${source}`),
    );
  expect(upward).toEqual([]);
});
