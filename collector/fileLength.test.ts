import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { sourceFilesUnder } from './testing/importGraph';

// Small files, one idea each, named after what they export (ARCHITECTURE.md, "Where things go"):
// a source or test file that grows past this is split by concern, as the store contract was
// (store/contract/, testing/storeContract/).
const MAX_LINES = 300;
const repository = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// What is installed, built or written by a run (.gitignore), not written here.
const NOT_WRITTEN_HERE = ['node_modules', 'dist', 'data', 'test-results', 'playwright-report', 'results'];

/** The line count of a text as `wc -l` gives it, plus a last line without a newline. */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** The .ts, .tsx and .mjs files under `dir` over MAX_LINES, as "path: N lines". */
const longFiles = (dir: string) =>
  sourceFilesUnder(dir, NOT_WRITTEN_HERE)
    .map((file) => ({ file: relative(dir, file), lines: lineCount(readFileSync(file, 'utf8')) }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);

test(`no .ts, .tsx or .mjs file of the repository is over ${MAX_LINES} lines`, () => {
  expect(longFiles(repository)).toEqual([]);
});

test('a file over the limit is caught, at any depth and of each kind; what is installed or built is not read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'file-length-'));
  try {
    const lines = (count: number) => 'x\n'.repeat(count);
    mkdirSync(join(dir, 'a/b'), { recursive: true });
    mkdirSync(join(dir, 'node_modules'));
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'a/b/long.tsx'), lines(MAX_LINES + 1));
    writeFileSync(join(dir, 'long.mjs'), `${lines(MAX_LINES)}x`);
    writeFileSync(join(dir, 'exact.ts'), lines(MAX_LINES));
    writeFileSync(join(dir, 'long.md'), lines(MAX_LINES + 1));
    writeFileSync(join(dir, 'node_modules/long.ts'), lines(MAX_LINES + 1));
    writeFileSync(join(dir, 'dist/long.ts'), lines(MAX_LINES + 1));
    expect(longFiles(dir).sort()).toEqual([`a/b/long.tsx: ${MAX_LINES + 1} lines`, `long.mjs: ${MAX_LINES + 1} lines`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
