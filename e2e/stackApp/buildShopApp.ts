import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';

/** The shop app's folder: src/ (the site's code), vendor/ (a library), page.js (the page's own script). */
export const SHOP_APP = fileURLToPath(new URL('./', import.meta.url));

/** The page's own script, which calls the bundle (served beside it, never mapped). */
export const SHOP_PAGE_SCRIPT = readFileSync(join(SHOP_APP, 'page.js'), 'utf8');

/**
 * Where `text` first is in one of the app's files, as engines and maps count: line and column from 1.
 *
 * @example
 * sourcePosition('src/format.js', 'throw new TypeError') // { line: 6, column: 5 }
 */
export const sourcePosition = (file: string, text: string) => {
  const lines = readFileSync(join(SHOP_APP, file), 'utf8').split('\n');
  const index = lines.findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`${file} has no ${JSON.stringify(text)}`);
  return { line: index + 1, column: lines[index]!.indexOf(text) + 1 };
};

/**
 * Bundles the shop app as a site ships it: rollup + terser into `outDir/app.min.js`, an IIFE
 * exposing `shopApp`, with `app.min.js.map` beside it holding the sources' text and a debug ID
 * (`sourcemapDebugIds`). The map names the sources from the app's folder (`src/format.js`) and
 * lists the vendored library in its `ignoreList`, as bundlers do for node_modules
 * (docs/source-maps.md, "in_app").
 *
 * @example
 * const { bundle, map } = await buildShopApp(join(tmp, 'dist')); // tmp/dist/app.min.js, tmp/dist/app.min.js.map
 */
export const buildShopApp = async (outDir: string) => {
  const build = await rollup({ input: join(SHOP_APP, 'src/main.js') });
  try {
    await build.write({
      file: join(outDir, 'app.min.js'),
      format: 'iife',
      name: 'shopApp',
      sourcemap: true,
      sourcemapDebugIds: true,
      sourcemapPathTransform: (source, mapPath) => relative(SHOP_APP, resolve(dirname(mapPath), source)),
      // Given the source as relative to the map, before the transform above.
      sourcemapIgnoreList: (source, mapPath) => resolve(dirname(mapPath), source).startsWith(join(SHOP_APP, 'vendor/')),
      plugins: [terser()],
    });
  } finally {
    await build.close();
  }
  return { bundle: join(outDir, 'app.min.js'), map: join(outDir, 'app.min.js.map') };
};
