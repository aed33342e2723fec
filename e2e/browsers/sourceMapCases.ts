// Readable stacks, the same in every browser (docs/source-maps.md): a minified app built with
// rollup + terser throws in the browser, the beacon reports it with its release, the build's maps
// are uploaded afterwards by the real `sitebeacon sourcemaps upload`, and the read API's events
// then give the top frames in the code as written. Asserted on what the collector serves
// (`GET .../issues/{fingerprint}/events`), never on what the browser sent.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { IssueEvent } from '../../collector/routes/apiTypes';
import { buildShopApp, SHOP_PAGE_SCRIPT, sourcePosition } from '../stackApp/buildShopApp';
import type { BrowserDriver } from './driver';
import type { World } from './harness';
import { pollStored, until } from './poll';

/** What the browser's suite (cases.ts) lends these cases. */
export interface SourceMapContext {
  world: () => World;
  browser: () => BrowserDriver;
  /** Runs the assertions; records "captured" when they hold, else what was measured. */
  verdict: (id: 'source-maps', assertions: () => void, measured: () => string) => void;
}

/** The shop page: the beacon with the site's release, the minified bundle, the page's own script and its Pay button. */
const shopAppPage = (collector: string, siteKey: string, release: string) => `<!doctype html><html lang="en"><title>shop app</title>
<script src="${collector}/beacon.js" data-site-key="${siteKey}" data-ingest-origin="${collector}" data-release="${release}"></script>
<h1>Shop app</h1><button id="pay">pay</button>
<script src="/stack-app/app.min.js"></script>
<script src="/stack-app/page.js" defer></script></html>`;

/**
 * The source-map case, inside a browser's `describe` (cases.ts): the app is built once per
 * browser into a temporary folder, as a site's build would leave it.
 *
 * @example
 * sourceMapCases({ world: () => world, browser: () => browser, verdict });
 */
export const sourceMapCases = ({ world, browser, verdict }: SourceMapContext) =>
  describe('readable stacks', () => {
    let dir: string;
    let build: Awaited<ReturnType<typeof buildShopApp>>;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'sitebeacon-shop-app-'));
      build = await buildShopApp(join(dir, 'dist'));
    });
    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test("a minified app's error is read with the source's function, file, line and column once `sourcemaps upload` has sent the build's maps", async () => {
      const siteKey = await world().addSite();
      const release = `shop-${browser().name}-1.0`;
      const collector = world().collectorOrigin;
      world().route('/stack-app/', shopAppPage(collector, siteKey, release), {
        'content-security-policy': `default-src 'self'; script-src 'self' ${collector}; connect-src ${collector}`,
      });
      world().route('/stack-app/app.min.js', readFileSync(build.bundle, 'utf8'), { 'content-type': 'text/javascript' });
      world().route('/stack-app/page.js', SHOP_PAGE_SCRIPT, { 'content-type': 'text/javascript' });
      await browser().goto(`${world().pageOrigin}/stack-app/`);
      await until(() => browser().evaluate<boolean>("return 'sitebeacon' in window && 'shopApp' in window"), 'the beacon and the app to start');
      await browser().click('#pay');
      const [stored] = await pollStored(() => world().stored(siteKey, 'errors'), (records) => records.length >= 1);
      expect(stored).toMatchObject({ error_message: 'checkout total has no currency', release });
      const eventsPath = `/sites/${siteKey}/issues/${stored!.fingerprint}/events`;
      const framesServed = async () => (await world().read<{ items: IssueEvent[] }>(eventsPath)).items[0]!.frames;

      // Before the upload the release has no map for the bundle: the frames say so.
      const before = await framesServed();
      expect(before[0]).toMatchObject({ file: `${world().pageOrigin}/stack-app/app.min.js`, original: null, unmapped: 'no_map', in_app: true });

      const map = JSON.parse(readFileSync(build.map, 'utf8')) as { debugId: string };
      expect(await world().uploadSourceMaps(siteKey, release, '~/stack-app/', join(dir, 'dist'))).toEqual([
        { map: 'app.min.js.map', url: '~/stack-app/app.min.js', status: 'uploaded', debug_id: map.debugId },
      ]);

      // The same stored report, read again: its frames now in the code as written. The throw's
      // column is that of `new` in V8 and SpiderMonkey, of the call's `(` in JavaScriptCore, which
      // maps to `TypeError` (docs/source-maps.md, "Parsing stacks").
      const frames = await framesServed();
      const thrown = sourcePosition('src/format.js', browser().name == 'webkit' ? 'TypeError(' : 'new TypeError');
      const called = sourcePosition('src/cart.js', 'formatTotal(total');
      const stepped = sourcePosition('src/main.js', 'checkout(order)');
      // What the table says when the frames are not the source's: the top frame as served.
      const measured = () => `top frame ${JSON.stringify(frames[0] && (frames[0].original ? { ...frames[0].original, context: undefined } : { unmapped: frames[0].unmapped }))}`;
      verdict(
        'source-maps',
        () => {
          expect(frames.slice(0, 3).map((frame) => ({ original: frame.original && { ...frame.original, context: undefined }, unmapped: frame.unmapped, in_app: frame.in_app }))).toEqual([
            { original: { file: 'src/format.js', ...thrown, function: 'formatTotal', context: undefined }, unmapped: null, in_app: true },
            { original: { file: 'src/cart.js', ...called, function: 'checkout', context: undefined }, unmapped: null, in_app: true },
            { original: { file: 'src/main.js', ...stepped, function: 'step', context: undefined }, unmapped: null, in_app: true },
          ]);
          // The failing line and its neighbours from the map's sources, as written.
          expect(frames[0]!.original!.context).toMatchObject({ line: "    throw new TypeError('checkout total has no currency');", pre: expect.arrayContaining(['  if (!currency) {']) });
          // The vendored step runner, which the map's ignoreList names, is library code; pay() is the site's again.
          expect(frames.slice(3, 5).map((frame) => [frame.original?.file, frame.original?.function, frame.in_app])).toEqual([
            ['vendor/steps.js', 'applyStep', false],
            ['vendor/steps.js', 'runSteps', false],
          ]);
          expect(frames[5]).toMatchObject({ original: { file: 'src/main.js', ...sourcePosition('src/main.js', 'runSteps([') }, in_app: true });
          // The page's own script has no map in the release: not mapped, and said why.
          expect(frames.find((frame) => frame.file?.endsWith('/stack-app/page.js'))).toMatchObject({ original: null, unmapped: 'no_map', in_app: true });
        },
        measured,
      );
    });
  });
