// What the collector stores of errors the beacon could easily get wrong, the same in every browser:
// what fails before the async beacon has arrived (kept by the snippet's early-capture stub,
// docs/early-capture.md, and stored with the time it happened), thrown and rejected values that
// are not Errors, and errors' causes. Each case asserts what the collector STORED
// (`sitebeacon export`) and records its outcome for the support table (supportTable.mjs).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EARLY_STUB } from '../../beacon/lib/earlyStub';
import { startDelayingProxy } from './delayingProxy';
import type { BrowserDriver } from './driver';
import { BLOCKED_IMAGE, earlyPage, fidelityPolicy, latePage, type EarlyTrouble } from './fidelityPages';
import type { StoredRecord, World } from './harness';
import { pollStored, until } from './poll';

export type FidelityCaseId = 'early-error' | 'early-rejection' | 'early-csp' | 'thrown-values' | 'rejected-event' | 'causes';

/** What the browser's suite (cases.ts) lends these cases. */
export interface FidelityContext {
  world: () => World;
  browser: () => BrowserDriver;
  /** Runs the assertions; records "captured" when they hold, else what was measured. */
  verdict: (id: FidelityCaseId, assertions: () => void, measured: () => string) => void;
}

/** How long the front holds beacon.js back: long enough that a send time could never pass for the time it happened. */
const BEACON_DELAY = 1_000;

const describeRecords = (records: StoredRecord[]) =>
  `${records.length} stored: ${records.map((record) => `${record.error_type} ${JSON.stringify(record.error_message)}`).join(', ') || 'none'}`;

/**
 * The fidelity cases, inside a browser's `describe` (cases.ts): a front that holds beacon.js back
 * (delayingProxy.ts) for the early cases, the collector itself for the others.
 *
 * @example
 * fidelityCases({ world: () => world, browser: () => browser, verdict });
 */
export const fidelityCases = ({ world, browser, verdict }: FidelityContext) =>
  describe('errors before the beacon, unusual thrown values and causes', () => {
    let proxy: Awaited<ReturnType<typeof startDelayingProxy>>;
    beforeAll(async () => {
      proxy = await startDelayingProxy(world(), BEACON_DELAY);
    });
    afterAll(async () => {
      await proxy?.close();
    });

    /** A fresh site whose generated snippet loads beacon.js through the slow front; the page is loaded (beacon.js too). */
    const openEarly = async (trouble: EarlyTrouble) => {
      const siteKey = await world().addSite();
      const setup = await world().setup(siteKey, proxy.origin);
      // The generated snippet as it is: the stub, then the async tag, here for beacon.js through the front.
      expect(setup.snippet.split('\n')[0]).toBe(`<script>${EARLY_STUB}</script>`);
      expect(setup.beacon_url).toBe(`${proxy.origin}/beacon.js`);
      world().route(`/early/${trouble}`, earlyPage(setup, trouble), { 'content-security-policy': fidelityPolicy(setup) });
      await browser().goto(`${world().pageOrigin}/early/${trouble}`);
      await until(() => browser().evaluate<boolean>("return 'sitebeacon' in window && 'beaconArrivedAt' in window"), 'the beacon to start');
      const [troubleAt, beaconArrivedAt] = await browser().evaluate<[number, number]>('return [window.troubleAt, window.beaconArrivedAt]');
      // The page failed while the beacon was still on its way: what follows is the stub's doing.
      expect(beaconArrivedAt - troubleAt).toBeGreaterThanOrEqual(BEACON_DELAY * 0.9);
      return { siteKey, pageUrl: `${world().pageOrigin}/early/${trouble}`, troubleAt, beaconArrivedAt };
    };

    /** The error reports stored for `siteKey` once `count` have arrived (and nothing more for a while). */
    const storedErrors = async (siteKey: string, count: number) => {
      await pollStored(() => world().stored(siteKey, 'errors'), (records) => records.length >= count);
      return world().exported(siteKey, 'errors');
    };

    test("an error thrown by the page's first script before beacon.js arrived is stored with the time it was thrown", async () => {
      const { siteKey, pageUrl, troubleAt, beaconArrivedAt } = await openEarly('throw');
      const records = await storedErrors(siteKey, 1);
      verdict(
        'early-error',
        () => {
          expect(records).toHaveLength(1);
          expect(records[0]).toMatchObject({ error_type: 'javascript_error', error_name: 'TypeError', error_message: 'settings is undefined', page_url: pageUrl });
          // When it was thrown (the stub's Date.now()), not when the beacon replayed or sent it.
          expect(records[0]!.timestamp).toBeGreaterThanOrEqual(troubleAt);
          expect(records[0]!.timestamp).toBeLessThan(beaconArrivedAt);
        },
        () => describeRecords(records),
      );
    });

    test('a rejection unhandled while the page loads, before beacon.js arrived, is stored with the time it happened', async () => {
      const { siteKey, pageUrl, troubleAt, beaconArrivedAt } = await openEarly('reject');
      const records = await storedErrors(siteKey, 1);
      verdict(
        'early-rejection',
        () => {
          expect(records).toHaveLength(1);
          expect(records[0]).toMatchObject({ error_type: 'unhandled_rejection', error_name: 'Error', error_message: 'config failed to load', page_url: pageUrl });
          expect(records[0]!.timestamp).toBeGreaterThanOrEqual(troubleAt);
          expect(records[0]!.timestamp).toBeLessThan(beaconArrivedAt);
        },
        () => describeRecords(records),
      );
    });

    test("a markup image the page's CSP blocks before beacon.js arrived is stored as an img-src violation and a failed load", async () => {
      const { siteKey, pageUrl } = await openEarly('blocked-image');
      await pollStored(() => world().stored(siteKey, 'csp'), (records) => records.length >= 1);
      const violations = await world().exported(siteKey, 'csp');
      const errors = await storedErrors(siteKey, 1);
      verdict(
        'early-csp',
        () => {
          expect(violations).toHaveLength(1);
          expect(violations[0]).toMatchObject({
            report_type: 'csp-violation',
            document_uri: pageUrl,
            effective_directive: 'img-src',
            blocked_uri: BLOCKED_IMAGE,
            disposition: 'enforce',
            sources: ['beacon'],
          });
          // The blocked load fails too: the image's `error` event, which the stub listens for in the capture phase.
          expect(errors).toHaveLength(1);
          expect(errors[0]).toMatchObject({ error_type: 'resource_error', error_message: 'img failed to load', source_url: BLOCKED_IMAGE });
        },
        () => `${violations.length} violations stored; errors ${describeRecords(errors)}`,
      );
    });

    /** The after-load page on a fresh site (the collector serves beacon.js at once); `buttons` clicked in order. */
    const clickLate = async (id: FidelityCaseId, buttons: string[]) => {
      const siteKey = await world().addSite();
      const setup = await world().setup(siteKey);
      world().route(`/late/${id}`, latePage(setup), { 'content-security-policy': fidelityPolicy(setup) });
      await browser().goto(`${world().pageOrigin}/late/${id}`);
      await until(() => browser().evaluate<boolean>("return 'sitebeacon' in window"), 'the beacon to start');
      for (const button of buttons) await browser().click(`#${button}`);
      const records = await storedErrors(siteKey, buttons.length);
      return { records, pageUrl: `${world().pageOrigin}/late/${id}` };
    };

    const byMessage = (records: StoredRecord[]) => [...records].sort((a, b) => String(a.error_message).localeCompare(String(b.error_message)));

    test('a thrown string and a thrown object are stored as the value itself, without an engine prefix', async () => {
      const { records, pageUrl } = await clickLate('thrown-values', ['throw-string', 'throw-object']);
      verdict(
        'thrown-values',
        () => {
          expect(byMessage(records).map((record) => [record.error_type, record.error_message, record.page_url])).toEqual([
            ['javascript_error', '{"code":"E_STOCK","retryable":false}', pageUrl],
            ['javascript_error', 'stringError', pageUrl],
          ]);
        },
        () => describeRecords(records),
      );
    });

    test("a rejection with an image's error Event is stored naming the Event, its type and the image's src", async () => {
      const { records } = await clickLate('rejected-event', ['reject-image']);
      const src = `${world().pageOrigin}/missing.png`;
      verdict(
        'rejected-event',
        () => {
          expect(records).toHaveLength(1);
          expect(records[0]).toMatchObject({
            error_type: 'unhandled_rejection',
            error_message: JSON.stringify({ Event: { type: 'error', target: { HTMLImageElement: { src } } } }),
          });
        },
        () => describeRecords(records),
      );
    });

    test("an error's cause chain and an AggregateError's inner errors are stored as causes, in order", async () => {
      const { records } = await clickLate('causes', ['throw-cause', 'throw-aggregate']);
      const [chained, aggregate] = [records.find((r) => r.error_message == 'checkout failed'), records.find((r) => r.error_message == 'payment failed')];
      const causesOf = (record?: StoredRecord) =>
        (record?.causes as StoredRecord[] | undefined)?.map(({ error_name, error_message, aggregate }) => ({ error_name, error_message, aggregate }));
      verdict(
        'causes',
        () => {
          expect(records).toHaveLength(2);
          expect(chained).toMatchObject({ error_type: 'javascript_error', error_name: 'Error' });
          expect(causesOf(chained)).toEqual([
            { error_name: 'TypeError', error_message: 'price is missing', aggregate: undefined },
            { error_name: 'RangeError', error_message: 'quantity 0 is out of range', aggregate: undefined },
          ]);
          expect(aggregate).toMatchObject({ error_type: 'javascript_error', error_name: 'AggregateError' });
          expect(causesOf(aggregate)).toEqual([
            { error_name: 'Error', error_message: 'card declined', aggregate: true },
            { error_name: 'TypeError', error_message: 'address is invalid', aggregate: true },
          ]);
          // Each cause keeps its own stack where the engine gives one (all three do for errors made in page script).
          for (const cause of [...chained!.causes, ...aggregate!.causes]) expect(cause.stack).toMatch(/\S/);
        },
        () => `${describeRecords(records)}; causes ${JSON.stringify([causesOf(chained), causesOf(aggregate)])}`,
      );
    });
  });
