import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';

/** The tiny shop app whose minified stacks the source-map tests symbolicate (docs/source-maps.md). */
export const STACK_APP_SOURCE = fileURLToPath(new URL('../fixtures/stacks/app/src/', import.meta.url));
/** Where `e2e/browsers/captureStacks.mjs` writes the build the browsers ran. */
export const STACK_APP_BUNDLE = fileURLToPath(new URL('../fixtures/stacks/app/bundle/', import.meta.url));

/**
 * Bundles the shop app as a site would ship it: rollup + terser, an IIFE exposing `shopApp`, a
 * source map beside it with the sources' text and a debug ID (rollup's `sourcemapDebugIds`, which
 * also writes `//# debugId=` into the bundle). Resolves with the two files' paths. `next`: another
 * build of the same sources, as a later release would be: a banner line first and terser's first
 * names reserved, so that every name and position in the bundle differs (docs/grouping.md, "Across releases").
 *
 * @example
 * const { bundle, map } = await buildStackApp(tmpDir); // tmpDir/app.min.js, tmpDir/app.min.js.map
 */
export const buildStackApp = async (outDir: string, { next = false }: { next?: boolean } = {}) => {
  const build = await rollup({ input: join(STACK_APP_SOURCE, 'main.js') });
  try {
    await build.write({
      file: join(outDir, 'app.min.js'),
      format: 'iife',
      name: 'shopApp',
      sourcemap: true,
      sourcemapDebugIds: true,
      ...(next ? { banner: '/* shop 2.0 */' } : {}),
      plugins: [terser(next ? { mangle: { reserved: ['r', 't', 'n'] }, format: { comments: /shop/ } } : {})],
    });
  } finally {
    await build.close();
  }
  return { bundle: join(outDir, 'app.min.js'), map: join(outDir, 'app.min.js.map') };
};
