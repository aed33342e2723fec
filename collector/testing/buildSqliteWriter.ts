// vitest globalSetup: the SQLite writer thread (collector/store/sqlite/writerThread.ts) bundled
// from its current sources before the tests run. A worker thread is plain Node, which cannot load
// TypeScript; the built collector has dist/sqliteWriter.js (rollup.config.mjs), and the tests get
// this bundle of the same sources at SQLITE_WRITER_BUNDLE (vitest.config.ts defines its URL for
// store/sqlite/reportQueue.ts). Rollup and TypeScript's transpiler: nothing else to install.
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the bundle goes: beside the dependencies it imports (better-sqlite3). */
export const SQLITE_WRITER_BUNDLE = resolve(ROOT, 'node_modules/.cache/sitebeacon/sqliteWriter.mjs');

/** The source map thread (collector/sourcemaps/mapThread.ts), bundled the same way (vitest.config.ts defines its URL for sourcemaps/mapWorker.ts). */
export const MAP_THREAD_BUNDLE = resolve(ROOT, 'node_modules/.cache/sitebeacon/sourceMapThread.mjs');

/** Bundles writerThread.ts (the writer, checkpoint and reader threads) into SQLITE_WRITER_BUNDLE, and mapThread.ts into MAP_THREAD_BUNDLE. */
export const buildSqliteWriter = async () => {
  await bundleThread('collector/store/sqlite/writerThread.ts', SQLITE_WRITER_BUNDLE);
  await bundleThread('collector/sourcemaps/mapThread.ts', MAP_THREAD_BUNDLE);
};

/** One thread's script and what it imports, the packages left to node_modules. */
const bundleThread = async (input: string, file: string) => {
  const bundle = await rollup({
    input: resolve(ROOT, input),
    // The reader's p75 (store/sqlite/p75.ts) reads web-vitals' thresholds (core/vitals.ts); the map
    // thread reads maps with trace-mapping and checks them with valibot.
    external: (id) =>
      id.startsWith('node:') || builtinModules.includes(id) || ['better-sqlite3', 'web-vitals', '@jridgewell/trace-mapping', 'valibot'].includes(id),
    plugins: [
      {
        name: 'typescript-transpile',
        resolveId(source, importer) {
          if (!importer || !source.startsWith('.')) return null;
          const base = resolve(dirname(importer), source);
          return [`${base}.ts`, resolve(base, 'index.ts'), base].find((file) => existsSync(file)) ?? null;
        },
        transform(code, id) {
          if (!id.endsWith('.ts')) return null;
          const output = ts.transpileModule(code, {
            compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
            fileName: id,
          });
          return { code: output.outputText, map: null };
        },
      },
    ],
  });
  await bundle.write({ file, format: 'es' });
  await bundle.close();
};

export default buildSqliteWriter;
