import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/** Source extensions the repository's tests read: TypeScript, TSX and ES modules. */
const SOURCE = /\.(ts|tsx|mjs)$/;
/** What a relative import may leave out, in the order the bundler (tsconfig "Bundler") tries it. */
const CANDIDATES = ['', '.ts', '.tsx', '.mjs', '.js', '/index.ts', '/index.tsx'];

/**
 * Every .ts, .tsx and .mjs file under `dir`, leaving out the folders named in `skip` (at any depth)
 * and those whose name starts with a dot.
 *
 * @example
 * const files = sourceFilesUnder('/repo/collector', ['node_modules']);
 */
export const sourceFilesUnder = (dir: string, skip: readonly string[] = []): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skip.includes(entry.name) || entry.name.startsWith('.') ? [] : sourceFilesUnder(path, skip);
    return SOURCE.test(entry.name) ? [path] : [];
  });

/**
 * The files a module imports by relative path, resolved to absolute paths: static imports and
 * re-exports, `import type` included, side-effect imports and dynamic `import()`. TypeScript's own
 * scanner reads the text, so an import written in a comment or a string is no import.
 * Package imports (`'vitest'`, `'node:fs'`) are left out.
 *
 * @example
 * importsOf('/repo/dashboard/components/Chart.tsx'); // ['/repo/dashboard/components/chartLine.ts', ...]
 */
export const importsOf = (file: string): string[] =>
  ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => {
      const base = resolve(dirname(file), specifier);
      const found = CANDIDATES.map((suffix) => base + suffix).find((path) => existsSync(path) && statSync(path).isFile());
      return found ?? base;
    });

/**
 * The import cycles of a graph (file -> the files it imports): each strongly connected component
 * of more than one file, or of one file importing itself, as its files sorted. Tarjan's algorithm,
 * iterative so that a long chain of imports cannot overflow the stack.
 *
 * @example
 * importCycles(new Map([['a', ['b']], ['b', ['a']], ['c', ['a']]])); // [['a', 'b']]
 */
export const importCycles = (graph: ReadonlyMap<string, readonly string[]>): string[][] => {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work.at(-1)!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++]!;
        if (!graph.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) != index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member != frame.node);
      if (component.length > 1 || edges.includes(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles;
};
