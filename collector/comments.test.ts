// The repository carries its own documentation (docs/), and its comments cite it: a clone has
// nothing else. So no source or test file may cite a file outside the repository (the design notes
// and the API specification's file live beside a working copy, not in it; the specification is
// cited by section), or an issue number (say what the code is for, or cite docs/), and a comment
// that names a file of the repository must name one that exists (files move; a comment that points
// at the old place misleads). A line number beside a file name goes stale at the next edit of that
// file: name the function instead.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Folders that are not the repository's own text: installed packages, builds, test output. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'test-results', 'playwright-report', 'results', 'blob-report']);
const SOURCE = /\.(?:ts|tsx|mjs)$/;

const filesUnder = (dir: string, wanted: RegExp): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('.') ? [] : filesUnder(path, wanted);
    return wanted.test(entry.name) ? [path] : [];
  });

// Built from parts, so that this file does not cite what it forbids.
const FORBIDDEN: Array<[what: string, pattern: RegExp]> = [
  ['a path outside the repository', new RegExp(['\\.\\.', 'shared', ''].join('/'), 'g')],
  ["the specification's file name", new RegExp(['000', 'd47a92ab5ba4533b'].join('_'), 'g')],
  // Also when a comment's line break falls between the word and the number.
  ['an issue number', /\bissues?(?:\s|\/\/|\*)+#?\d+/gi],
];

/** Every citation of `text` that FORBIDDEN names, as `line: what: excerpt`. */
export const forbiddenCitations = (text: string): string[] =>
  FORBIDDEN.flatMap(([what, pattern]) =>
    [...text.matchAll(new RegExp(pattern.source, 'gi'))].map((match) => {
      const line = text.slice(0, match.index).split('\n').length;
      return `${line}: ${what}: ${text.split('\n')[line - 1]!.trim().slice(0, 120)}`;
    }),
  );

const scriptKindOf = (file: string) => (file.endsWith('.tsx') ? ts.ScriptKind.TSX : file.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS);

/** The comments of a TypeScript or JavaScript file, each with its first line, found by TypeScript's own parser. */
export const commentsOf = (file: string, text: string): Array<{ line: number; text: string }> => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, scriptKindOf(file));
  const seen = new Map<number, string>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) seen.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.getFullStart()));
    add(ts.getTrailingCommentRanges(text, node.getEnd()));
    // Tokens too (a comment before a `}` or inside an empty object belongs to no node of its own).
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...seen]
    .sort(([a], [b]) => a - b)
    .map(([pos, comment]) => ({ line: source.getLineAndCharacterOfPosition(pos).line + 1, text: comment }));
};

/**
 * Paths of the repository's kind of source files a comment names: `store/openStore.ts`,
 * `./layers.test.ts`, `beacon/lib/wire.ts`, with a line number or not. Not a glob (`*.test.ts`), not part of a URL or of a longer
 * name, and not a file of another project cited in its own repository (`h3 src/error.ts`), which
 * a comment introduces by the project's name: those start with `src/` or `packages/`.
 */
const PATH = /(?<![\w.*/@:-])((?:\.{1,2}\/)*(?:[\w@-][\w.@-]*\/)*[\w-][\w.-]*\.(?:ts|tsx|mjs))(:\d+)?(?![\w/])/g;
const OTHER_PROJECTS = /^(?:src|packages)\//;

/** Every file of the repository by its base name, for a bare name (`reportQueue.ts`) said of a file anywhere. */
const allFiles = filesUnder(root, SOURCE);
const baseNames = new Set(allFiles.map((file) => file.slice(file.lastIndexOf('/') + 1)));

/**
 * Whether a path a comment in `file` names exists: relative to the file's folder or to any folder
 * above it up to the repository's root (a comment in collector/routes/ says `store/siteCache.ts`
 * for collector/store/siteCache.ts); a bare file name anywhere in the repository.
 */
export const pathExists = (file: string, path: string) => {
  if (!path.includes('/')) return baseNames.has(path) || existsSync(join(dirname(file), path));
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const candidate = resolve(dir, path);
    if (existsSync(candidate) && statSync(candidate).isFile()) return true;
    if (path.startsWith('.') || dir == root || !dir.startsWith(root)) return false;
  }
};

/** What is wrong with the file paths the comments of `file` name, as `line: …`. */
export const staleFileNames = (file: string, text: string): string[] =>
  commentsOf(file, text).flatMap((comment) =>
    [...comment.text.matchAll(PATH)].flatMap((match) => {
      const [, path, lineNumber] = match as unknown as [string, string, string | undefined];
      const at = comment.line + comment.text.slice(0, match.index).split('\n').length - 1;
      if (OTHER_PROJECTS.test(path)) return [];
      if (!pathExists(file, path)) return [`${at}: names ${path}, which does not exist`];
      if (lineNumber) return [`${at}: names a line (${path}${lineNumber}): lines move, name the function instead`];
      return [];
    }),
  );

/**
 * The backticked files a page of docs/ names that do not exist: the pages name them from the
 * repository's root (`collector/store/postgres.ts`), from collector/ (`store/siteCache.ts`,
 * `core/fingerprint.ts`) or from beacon/ (its lib/ helpers).
 */
export const staleDocFileNames = (text: string): string[] =>
  [...text.matchAll(/`((?:[\w.-]+\/)*[\w.-]+\.(?:ts|tsx|mjs))`/g)]
    .filter(([, path]) => !['', 'collector', 'beacon'].some((base) => existsSync(join(root, base, path!))))
    .map((match) => `${text.slice(0, match.index).split('\n').length}: names ${match[1]}, which does not exist`);

/**
 * The headings of a markdown file, as written (`#` marks and surrounding space dropped), and the
 * bold lead-ins that open a paragraph as a heading would (`**When the database goes away.**`).
 */
const headingsOf = (file: string) => {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^#+\s+(.+?)\s*$/gm), ...text.matchAll(/^\*\*([^*\n]+?)\.?\*\*/gm)].map(([, heading]) => heading!);
};

/**
 * The sections a text cites that its document does not have: `README, "Retention"`,
 * `docs/csp-reports.md, "Repeats"`, `ARCHITECTURE.md, "The folders"`, also across a comment's line
 * break. A citation may shorten a heading to its start (`README, "In your Playwright tests"`).
 */
export const staleSections = (text: string): string[] =>
  [...text.matchAll(/\b(README|ARCHITECTURE\.md|docs\/[\w-]+\.md)(?:\.md)?,?(?:\s|\/\/|\*)+"([^"\n]+)"/g)].flatMap((match) => {
    const [, document, section] = match as unknown as [string, string, string];
    const headings = headingsOf(join(root, document == 'README' ? 'README.md' : document));
    const line = text.slice(0, match.index).split('\n').length;
    if (!headings) return [`${line}: cites ${document}, which does not exist`];
    return headings.some((heading) => heading.startsWith(section)) ? [] : [`${line}: cites ${document}, "${section}", which has no such section`];
  });

describe('comments cite the repository only', () => {
  const sources = allFiles;
  const documents = [...filesUnder(root, /\.md$/)];

  test('the check sees the repository', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(sources).toContain(fileURLToPath(import.meta.url));
  });

  test('no source, test, script or document cites a file outside the repository or an issue number', () => {
    const found = [...sources, ...documents]
      .filter((file) => file != fileURLToPath(import.meta.url))
      .flatMap((file) => forbiddenCitations(readFileSync(file, 'utf8')).map((problem) => `${relative(root, file)}:${problem}`));
    expect(found).toEqual([]);
  });

  test('every repository file a comment names exists', () => {
    const found = sources.flatMap((file) => staleFileNames(file, readFileSync(file, 'utf8')).map((problem) => `${relative(root, file)}:${problem}`));
    expect(found).toEqual([]);
  });

  test('every repository file a page of docs/ names exists', () => {
    const found = filesUnder(join(root, 'docs'), /\.md$/).flatMap((file) =>
      staleDocFileNames(readFileSync(file, 'utf8')).map((problem) => `${relative(root, file)}:${problem}`),
    );
    expect(found).toEqual([]);
  });

  test('every section of README.md, ARCHITECTURE.md or docs/ a file cites exists', () => {
    const found = [...sources, ...documents]
      .filter((file) => file != fileURLToPath(import.meta.url))
      .flatMap((file) => staleSections(readFileSync(file, 'utf8')).map((problem) => `${relative(root, file)}:${problem}`));
    expect(found).toEqual([]);
  });

  test('the checks catch what they are for', () => {
    const here = fileURLToPath(import.meta.url);
    expect(forbiddenCitations(`// ${['..', 'shared', 'design.md'].join('/')}, "Responses"`)).toHaveLength(1);
    expect(forbiddenCitations(`// see ${['000', 'd47a92ab5ba4533b'].join('_')}.txt`)).toHaveLength(1);
    expect(forbiddenCitations('// a bounded read (Issue 11, class 5)')).toHaveLength(1);
    expect(forbiddenCitations('// issues 3 and 18')).toHaveLength(1);
    expect(forbiddenCitations('// the goal (issue\n// 14: under 1 s)')).toHaveLength(1);
    expect(forbiddenCitations(' * as the issue\n * 7 of them')).toHaveLength(1);
    expect(forbiddenCitations("// answered 429 (status 429), the spec's section 7; docs/csp-reports.md")).toEqual([]);
    // A file that moved, relative to the collector or to the repository's root, with or without a line.
    expect(staleFileNames(here, '/** The summary (store/noSuchReadSummary.ts). */\nexport {};')).toHaveLength(1);
    expect(staleFileNames(here, '// as collector/store/postgres/noSuchBatch.ts:50 does\nexport {};')).toHaveLength(1);
    expect(staleFileNames(here, '// `noSuchFile.ts`\nexport {};')).toHaveLength(1);
    // A file that exists, named from here or from the root; a line number beside it is stale-prone.
    expect(staleFileNames(here, '// store/openStore.ts, beacon/lib/wire.ts, ./layers.test.ts, openStore.ts\nexport {};')).toEqual([]);
    expect(staleFileNames(here, '// store/openStore.ts:40\nexport {};')).toHaveLength(1);
    expect(staleFileNames(here, '/**\n * as store/postgres/batch.ts:50 inserts them\n */\nexport {};')).toHaveLength(1);
    expect(staleDocFileNames('the store (`store/openStore.ts`, `collector/store/noSuchBatch.ts`, `lib/monitor.ts`)')).toEqual([
      '1: names collector/store/noSuchBatch.ts, which does not exist',
    ]);
    expect(staleSections('// as the README, "Retention", says; docs/csp-reports.md, "Repeats"')).toEqual([]);
    expect(staleSections('// (README, "Sign-in"; docs/csp-reports.md,\n// "No such heading"; docs/noSuchPage.md, "X")')).toHaveLength(3);
    // Not comments, not this repository's files, not paths.
    expect(staleFileNames(here, "const glob = 'collector/**/*.test.ts'; const s = 'store/gone.ts';\nexport {};")).toEqual([]);
    expect(staleFileNames(here, '// h3 `src/error.ts`; https://example.com/app.ts\nexport {};')).toEqual([]);
  });
});
