import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { dashboardHtml } from './dashboard/build/dashboardHtml.mjs';
import nodeResolve from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';

/**
 * A worker thread's script as its own file, and its URL, relative to the chunk that starts it, where
 * the source names `placeholder`: the SQLite file's threads (collector/store/sqlite/writerThread.ts:
 * the writer, the checkpoints and the reader, by role) as dist/sqliteWriter.js, named by
 * collector/store/sqlite/sqliteThread.ts; the source map thread (collector/sourcemaps/mapThread.ts)
 * as dist/sourceMapThread.js, named by collector/sourcemaps/mapWorker.ts.
 */
const threadScript = (id, fileName, placeholder) => {
  let reference;
  return {
    name: `sitebeacon-thread-${fileName}`,
    buildStart() {
      reference = this.emitFile({ type: 'chunk', id, fileName });
    },
    transform(code) {
      if (!code.includes(placeholder)) return null;
      return { code: code.replaceAll(placeholder, `import.meta.ROLLUP_FILE_URL_${reference}`), map: null };
    },
  };
};

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

// The beacon's default main host (docs/beacon.md, "Endpoint resolution"); empty means the page's own origin.
// `fixture`: sitebeacon/playwright's build, whose monitor() hands contained errors to the test
// (beacon/lib/monitor.ts); in every other build that code is dead and dropped.
const defineAppUrl = (fixture = false) =>
  replace({
    preventAssignment: true,
    values: {
      __SITEBEACON_APP_URL__: JSON.stringify(process.env.SITEBEACON_APP_URL || ''),
      __SITEBEACON_FIXTURE__: JSON.stringify(fixture),
    },
  });

const beaconTypescript = (declarations) =>
  typescript({
    tsconfig: './tsconfig.json',
    include: ['beacon/**/*.ts'],
    // Test kits (beacon/testing/) are not part of any build, declarations included.
    exclude: ['**/*.test.ts', 'beacon/testing/**'],
    noEmit: false,
    ...(declarations
      ? { declaration: true, declarationDir: 'dist/types', outDir: 'dist', rootDir: '.' }
      : { declaration: false, outDir: 'dist' }),
  });

/**
 * Terser as web-vitals uses it: `_`-prefixed properties are private and mangled. The ESM build is
 * minified too, so that apps bundling it get the mangled names whatever their own minifier does.
 */
const minify = (module, nameCache) =>
  terser({
    ecma: 2020,
    module,
    compress: { passes: 3, unsafe_arrows: true },
    mangle: { properties: { regex: /^_/ } },
    // The ES module build keeps its `@__PURE__` annotations, so that an app's bundler drops what
    // the app leaves unused (init's handle, when the app ignores it).
    format: { comments: false, preserve_annotations: module },
    // One cache for every file of one build: a property mangled in a shared chunk gets the same
    // name in each entry that uses it (the plugin then minifies the files one after the other).
    nameCache,
  });

export default [
  {
    // The script-tag build: errors, CSP, the transport and the session logic, and what loads the vitals.
    input: 'beacon/script.ts',
    output: { file: 'dist/beacon.min.js', format: 'iife', sourcemap: false },
    plugins: [defineAppUrl(), nodeResolve(), beaconTypescript(false), minify(false)],
  },
  {
    // Its second script, web-vitals, which beacon.min.js loads at idle from beside itself
    // (beacon/lazyVitals.ts); the one global it defines is the function to call.
    input: 'beacon/vitalsScript.ts',
    output: { file: 'dist/beacon.vitals.min.js', format: 'iife', name: 'sitebeaconVitals', exports: 'default', sourcemap: false },
    plugins: [nodeResolve(), beaconTypescript(false), minify(false)],
  },
  {
    // The beacon as sitebeacon/playwright injects it with context.addInitScript (playwright/page/):
    // options from the fixture instead of data- attributes, web-vitals bundled. Apart from
    // beacon.min.js, whose bytes it leaves alone.
    input: 'playwright/page/fixtureBeacon.ts',
    output: { file: 'dist/playwright.beacon.js', format: 'iife', name: 'sitebeaconFixture', exports: 'default', sourcemap: false },
    plugins: [
      defineAppUrl(true),
      nodeResolve(),
      typescript({
        tsconfig: './tsconfig.json',
        include: ['beacon/**/*.ts', 'playwright/page/*.ts'],
        exclude: ['**/*.test.ts', 'beacon/testing/**'],
        noEmit: false,
        declaration: false,
        outDir: 'dist',
      }),
      minify(false),
    ],
  },
  {
    // The npm build: ES modules, web-vitals left as an import so bundlers drop what is unused.
    // `sitebeacon/attribution` is a second entry; code both use sits in a shared chunk.
    input: { beacon: 'beacon/index.ts', attribution: 'beacon/attribution.ts' },
    output: { dir: 'dist', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/beacon-[hash].mjs', format: 'es' },
    external: (id) => id === 'web-vitals' || id.startsWith('web-vitals/'),
    plugins: [defineAppUrl(), beaconTypescript(true), minify(true, {})],
  },
  {
    // The dashboard (docs/dashboard.md): its own entry, Preact and uPlot bundled in, nothing shared with
    // the beacon. Hashed file names, so the collector serves them as immutable; dashboardHtml
    // writes index.html (the one page the collector answers for every dashboard path) and the CSS.
    // The entry (boot.ts) is small and starts the page's reads; the app is a chunk it imports.
    input: { dashboard: 'dashboard/boot.ts' },
    output: {
      dir: 'dist/dashboard',
      format: 'es',
      entryFileNames: 'assets/[name]-[hash].js',
      chunkFileNames: 'assets/[name]-[hash].js',
      assetFileNames: 'assets/[name]-[hash][extname]',
      sourcemap: false,
    },
    plugins: [
      nodeResolve(),
      typescript({
        tsconfig: './tsconfig.json',
        // The read API's typed path helper is the collector's (its types come with `import type`, erased).
        include: ['dashboard/**/*.ts', 'dashboard/**/*.tsx', 'collector/routes/apiPath.ts'],
        exclude: ['**/*.test.ts', '**/*.test.tsx'],
        noEmit: false,
        declaration: false,
        outDir: 'dist/dashboard',
      }),
      terser({ ecma: 2020, module: true, format: { comments: false } }),
      dashboardHtml({ css: ['node_modules/uplot/dist/uPlot.min.css', 'dashboard/styles.css'] }),
    ],
  },
  {
    // The collector, its CLI and its library entry, for Node; sitebeacon/playwright, which starts
    // the same collector in the test worker (shared code goes to chunks/).
    input: { cli: 'collector/cli.ts', serveThread: 'collector/serveThread.ts', collector: 'collector/index.ts', playwright: 'playwright/index.ts' },
    output: {
      dir: 'dist',
      format: 'es',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      banner: (chunk) => (chunk.name == 'cli' ? '#!/usr/bin/env node' : ''),
    },
    external: [
      ...builtinModules,
      ...builtinModules.map((name) => `node:${name}`),
      ...Object.keys(pkg.dependencies),
      // A peer dependency: the user's own copy, which runs their tests.
      ...Object.keys(pkg.peerDependencies),
    ].map((name) => new RegExp(`^${name.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')}(/|$)`)),
    plugins: [
      typescript({
        tsconfig: './tsconfig.json',
        // The wire format is shared with the beacon (beacon/lib/wire.ts), and so is the early-capture
        // stub the generated snippet carries (beacon/lib/earlyStub.ts).
        include: ['collector/**/*.ts', 'beacon/lib/wire.ts', 'beacon/lib/earlyStub.ts', 'playwright/**/*.ts'],
        exclude: ['**/*.test.ts', '**/*.contract.ts', 'collector/testing/**', 'playwright/page/fixtureBeacon.ts'],
        noEmit: false,
        // `sitebeacon/collector` ships its types (package.json "exports").
        declaration: true,
        declarationDir: 'dist/types',
        outDir: 'dist',
        rootDir: '.',
      }),
      threadScript('collector/store/sqlite/writerThread.ts', 'sqliteWriter.js', '__SITEBEACON_SQLITE_WRITER_URL__'),
      threadScript('collector/sourcemaps/mapThread.ts', 'sourceMapThread.js', '__SITEBEACON_MAP_THREAD_URL__'),
    ],
  },
  {
    // The published types, one file per entry: the declarations tsc wrote to dist/types bundled, so
    // that consumers resolve them under any moduleResolution (nodenext needs no extensionless
    // relative imports, which tsc's per-file declarations have).
    input: {
      beacon: 'dist/types/beacon/index.d.ts',
      attribution: 'dist/types/beacon/attribution.d.ts',
      collector: 'dist/types/collector/index.d.ts',
      playwright: 'dist/types/playwright/index.d.ts',
    },
    output: { dir: 'dist', entryFileNames: '[name].d.ts', chunkFileNames: 'chunks/types-[hash].d.ts', format: 'es' },
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('dist/'),
    plugins: [dts()],
  },
];
