import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import nodeResolve from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

// The beacon's default main host (design, "Endpoint resolution"); empty means the page's own origin.
const defineAppUrl = () =>
  replace({
    preventAssignment: true,
    values: { __SITEBEACON_APP_URL__: JSON.stringify(process.env.SITEBEACON_APP_URL || '') },
  });

const beaconTypescript = (declarations) =>
  typescript({
    tsconfig: './tsconfig.json',
    include: ['beacon/**/*.ts'],
    exclude: ['**/*.test.ts'],
    noEmit: false,
    ...(declarations
      ? { declaration: true, declarationDir: 'dist/types', outDir: 'dist', rootDir: '.' }
      : { declaration: false, outDir: 'dist' }),
  });

/**
 * Terser as web-vitals uses it: `_`-prefixed properties are private and mangled. The ESM build is
 * minified too, so that apps bundling it get the mangled names whatever their own minifier does.
 */
const minify = (module) =>
  terser({
    ecma: 2020,
    module,
    compress: { passes: 3, unsafe_arrows: true },
    mangle: { properties: { regex: /^_/ } },
    format: { comments: false },
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
    // The npm build: ES modules, web-vitals left as an import so bundlers drop what is unused.
    // `sitebeacon/attribution` is a second entry; code both use sits in a shared chunk.
    input: { beacon: 'beacon/index.ts', attribution: 'beacon/attribution.ts' },
    output: { dir: 'dist', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/beacon-[hash].mjs', format: 'es' },
    external: (id) => id === 'web-vitals' || id.startsWith('web-vitals/'),
    plugins: [defineAppUrl(), beaconTypescript(true), minify(true)],
  },
  {
    // The collector, its CLI and its library entry, for Node.
    input: { cli: 'collector/cli.ts', collector: 'collector/index.ts' },
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
    ].map((name) => new RegExp(`^${name.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')}(/|$)`)),
    plugins: [
      typescript({
        tsconfig: './tsconfig.json',
        // The wire format is shared with the beacon (beacon/lib/wire.ts).
        include: ['collector/**/*.ts', 'beacon/lib/wire.ts'],
        exclude: ['**/*.test.ts', '**/*.contract.ts', 'collector/testing/**'],
        noEmit: false,
        // `sitebeacon/collector` ships its types (package.json "exports").
        declaration: true,
        declarationDir: 'dist/types',
        outDir: 'dist',
        rootDir: '.',
      }),
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
    },
    output: { dir: 'dist', entryFileNames: '[name].d.ts', chunkFileNames: 'chunks/types-[hash].d.ts', format: 'es' },
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('dist/'),
    plugins: [dts()],
  },
];
