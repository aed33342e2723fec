// The cross-browser cases (README, "Browser support"), the same in every browser: the beacon's error, unhandled
// rejection, CSP violation and vitals at page hide, the browser's own CSP reports (`report-uri`,
// `report-to`), and one violation reported by both the beacon and `report-uri`. Each asserts what the collector STORED (`sitebeacon export`), and
// records what it measured for the support table (supportTable.mjs). fidelityCases.ts adds what
// fails before the beacon has loaded, unusual thrown values and causes; sourceMapCases.ts a minified
// app's stack read through its uploaded source maps.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BrowserDriver, BrowserName } from './driver';
import { fidelityCases, type FidelityCaseId } from './fidelityCases';
import { startWorld, type StoredRecord, type World } from './harness';
import { BOTH_PAGE, entriesRecorded, NATIVE_PAGE, NATIVE_POLICY, NATIVE_VIOLATIONS, shopPage } from './pages';
import { pollStored, until } from './poll';
import { sourceMapCases } from './sourceMapCases';
import { PER_BROWSER } from './supportTable.mjs';

export type CaseId = 'error' | 'rejection' | 'csp' | 'vitals' | 'report-uri' | 'report-to' | 'both' | FidelityCaseId | 'source-maps';

export interface Expectations {
  /** The Web Vitals this browser yields, in METRICS order. */
  metrics: string[];
}

/** web-vitals' metrics, in the order the table lists them. */
const METRICS = ['TTFB', 'FCP', 'LCP', 'INP', 'CLS'];

/**
 * Defines the suite for one browser: one browser session and one collector for all its cases, a
 * fresh site per case.
 *
 * @example
 * describeBrowser('firefox', () => launchPuppeteer('firefox'), { metrics: ['TTFB', 'FCP', 'LCP', 'INP'] });
 */
export const describeBrowser = (name: BrowserName, launch: () => Promise<BrowserDriver>, expected: Expectations) => {
  describe(name, () => {
    let world: World;
    let browser: BrowserDriver;
    const outcomes: Partial<Record<CaseId, { captured: boolean; detail?: string }>> = {};

    beforeAll(async () => {
      world = await startWorld();
      // Where a case goes to leave its page (the page is hidden, the beacon sends what it holds).
      world.route('/left', '<!doctype html><title>left</title><p>The page was left.</p>');
      browser = await launch();
    });
    afterAll(async () => {
      // Every process is stopped whatever failed; then what was measured is written.
      await browser?.close();
      await world?.close();
      if (browser && Object.keys(outcomes).length) {
        mkdirSync(PER_BROWSER, { recursive: true });
        const result = { browser: name, version: browser.version, user_agent: browser.userAgent, cases: outcomes };
        writeFileSync(join(PER_BROWSER, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
      }
    });

    /** Runs the assertions; records "captured" when they hold, else what was measured instead. */
    const verdict = (id: CaseId, assertions: () => void, measured: () => string) => {
      try {
        assertions();
        outcomes[id] = { captured: true };
      } catch (error) {
        outcomes[id] = { captured: false, detail: measured() };
        throw error;
      }
    };

    /**
     * What the collector answered the browser's own reports, when it refused some: measured, for
     * the table. Not how many: a browser may retry a refused upload, and the table must be stable.
     */
    const refusals = (siteKey: string) => {
      const refused = world.requestsFor(siteKey).filter((entry) => entry.method == 'POST' && entry.status >= 400);
      const statuses = [...new Set(refused.map((entry) => entry.status))].sort();
      return refused.length ? `; the collector answered ${statuses.join(', ')} to the browser's reports` : '';
    };

    /** The beacon e2e tests' page (e2e/pages/playground.js), on the page origin, with a policy allowing the collector. */
    const openShop = async (id: CaseId) => {
      const siteKey = await world.addSite();
      const collector = world.collectorOrigin;
      // A path per case: going to the very URL the tab shows, fragment included, would only scroll.
      world.route(`/shop/${id}`, shopPage(collector, siteKey), {
        'content-security-policy': `default-src 'self'; script-src 'self' ${collector}; connect-src ${collector}; img-src 'self'`,
      });
      await browser.goto(`${world.pageOrigin}/shop/${id}?ref=mail#top`);
      await until(() => browser.evaluate<boolean>("return 'sitebeacon' in window"), 'the beacon to start');
      // Stored page URLs keep the query and drop the fragment.
      return { siteKey, pageUrl: `${world.pageOrigin}/shop/${id}?ref=mail` };
    };

    test('a thrown error is stored once, with its message, type and stack', async () => {
      const { siteKey, pageUrl } = await openShop('error');
      await browser.click('#throw');
      await pollStored(() => world.stored(siteKey, 'errors'), (records) => records.length >= 1);
      const records = await world.exported(siteKey, 'errors');
      verdict(
        'error',
        () => {
          expect(records).toHaveLength(1);
          expect(records[0]).toMatchObject({
            error_type: 'javascript_error',
            error_message: 'cart is empty',
            error_name: 'TypeError',
            page_url: pageUrl,
            user_agent: browser.userAgent,
          });
          expect(records[0]!.stack).toContain('checkout');
        },
        () => `${records.length} error reports stored`,
      );
    });

    test('an unhandled rejection is stored once, its reason described as JSON', async () => {
      const { siteKey, pageUrl } = await openShop('rejection');
      await browser.click('#reject');
      await pollStored(() => world.stored(siteKey, 'errors'), (records) => records.length >= 1);
      const records = await world.exported(siteKey, 'errors');
      verdict(
        'rejection',
        () => {
          expect(records).toHaveLength(1);
          expect(records[0]).toMatchObject({
            error_type: 'unhandled_rejection',
            error_message: '{"code":"E_PAYMENT","retryable":false}',
            page_url: pageUrl,
          });
        },
        () => `${records.length} error reports stored`,
      );
    });

    test('a CSP violation seen by the beacon is stored once in the CSP2 shape', async () => {
      const { siteKey, pageUrl } = await openShop('csp');
      await browser.click('#blocked-image');
      await pollStored(() => world.stored(siteKey, 'csp'), (records) => records.length >= 1);
      const records = await world.exported(siteKey, 'csp');
      verdict(
        'csp',
        () => {
          expect(records).toHaveLength(1);
          expect(records[0]).toMatchObject({
            report_type: 'csp-violation',
            document_uri: pageUrl,
            effective_directive: 'img-src',
            blocked_uri: 'https://blocked.example/pixel.gif',
            disposition: 'enforce',
            user_agent: browser.userAgent,
            sources: ['beacon'],
          });
        },
        () => `${records.length} CSP reports stored`,
      );
    });

    test(`the performance session sent when the page is left holds ${expected.metrics.join(', ')}`, async () => {
      const { siteKey, pageUrl } = await openShop('vitals');
      // A late banner (a layout shift 700 ms after the click, so not excluded as input-driven),
      // then a slow click handler (an interaction for INP).
      await browser.click('#shift');
      await until(() => browser.evaluate<boolean>("return document.body.textContent.includes('late banner')"), 'the late banner');
      await browser.click('#slow');
      await until(() => browser.evaluate<boolean>("return document.getElementById('slow').textContent == 'clicked'"), 'the slow click');
      await browser.evaluate(entriesRecorded(['layout-shift', 'event']));
      // Leaving the page hides it: the beacon sends its last session update with sendBeacon.
      await browser.goto(`${world.pageOrigin}/left`);
      await pollStored(
        () => world.stored(siteKey, 'performance'),
        (sessions) => sessions.length > 0 && ['FCP', 'TTFB'].every((metric) => metric in (sessions[0]!.metrics ?? {})),
        { quiet: 2_000 },
      );
      const sessions = await world.exported(siteKey, 'performance');
      const metrics = (sessions[0]?.metrics ?? {}) as Record<string, { value: number; rating: string }>;
      const yielded = METRICS.filter((metric) => metric in metrics);
      const missing = METRICS.filter((metric) => !(metric in metrics));
      outcomes.vitals = { captured: yielded.length > 0, detail: `${yielded.join(', ')}${missing.length ? ` (no ${missing.join(', ')})` : ''}` };
      expect(sessions).toHaveLength(1);
      expect(sessions[0]).toMatchObject({ page_url: pageUrl, navigation_type: 'navigate', user_agent: browser.userAgent });
      expect(Object.keys(metrics).sort()).toEqual([...expected.metrics].sort());
      for (const metric of Object.values(metrics)) {
        expect(metric.value).toBeGreaterThanOrEqual(0);
        expect(['good', 'needs-improvement', 'poor']).toContain(metric.rating);
      }
      if (metrics.INP) expect(metrics.INP.value).toBeGreaterThanOrEqual(100);
      if (metrics.CLS) expect(metrics.CLS.value).toBeGreaterThan(0);
    });

    /** The browser's own reports of the fixtures' three violations, sent to the site's CSP endpoint. */
    const nativeCase = (id: 'report-uri' | 'report-to', title: string, headers: (endpoint: string) => Record<string, string>) =>
      test(title, async () => {
        const siteKey = await world.addSite();
        world.route(`/${id}`, NATIVE_PAGE, headers(`${world.collectorOrigin}/api/csp-reports/${siteKey}`));
        await browser.goto(`${world.pageOrigin}/${id}?step=2#top`);
        // Until the three arrive, or the collector has refused one of them (then no need to wait longer).
        const refused = () => world.requestsFor(siteKey).some((entry) => entry.method == 'POST' && entry.status >= 400);
        await pollStored(() => world.stored(siteKey, 'csp'), (records) => records.length >= NATIVE_VIOLATIONS.length || refused(), {
          timeout: 30_000,
        });
        const records = await world.exported(siteKey, 'csp');
        const found = records.map((record) => [record.effective_directive, record.blocked_uri]);
        verdict(
          id,
          () => {
            expect(found.sort()).toEqual([...NATIVE_VIOLATIONS].sort());
            for (const record of records as StoredRecord[]) {
              expect(record).toMatchObject({ report_type: 'csp-violation', document_uri: `${world.pageOrigin}/${id}?step=2`, user_agent: browser.userAgent });
              expect(record.sources).toEqual([id]);
            }
          },
          () => `${records.length} of ${NATIVE_VIOLATIONS.length} violations stored${refusals(siteKey)}`,
        );
      });

    nativeCase('report-uri', "the browser's own report-uri reports are stored, each violation once", (endpoint) => ({
      'content-security-policy': `${NATIVE_POLICY}; report-uri ${endpoint}`,
    }));
    nativeCase('report-to', "the browser's own report-to reports (Reporting-Endpoints) are stored, each violation once", (endpoint) => ({
      'content-security-policy': `${NATIVE_POLICY}; report-to sitebeacon`,
      'reporting-endpoints': `sitebeacon="${endpoint}"`,
    }));

    test('a violation reported by both the beacon and report-uri is stored once, and no report is refused', async () => {
      const siteKey = await world.addSite();
      const collector = world.collectorOrigin;
      world.route('/both', BOTH_PAGE(collector, siteKey), {
        'content-security-policy': `${NATIVE_POLICY.replace("'unsafe-inline'", `'unsafe-inline' ${collector}`)}; connect-src ${collector}; report-uri ${collector}/api/csp-reports/${siteKey}`,
      });
      await browser.goto(`${world.pageOrigin}/both?step=2#top`);
      // Until each violation is there with both copies merged (docs/csp-reports.md, "One violation, one count: copies"), or 30 s have passed.
      const bothArrived = (records: StoredRecord[]) => records.length >= NATIVE_VIOLATIONS.length && records.every((record) => record.sources?.length == 2);
      await pollStored(() => world.stored(siteKey, 'csp'), bothArrived, { timeout: 30_000 });
      // Leaving the page makes the beacon send whatever it still holds: a late copy would show now.
      await browser.goto(`${world.pageOrigin}/left`);
      await pollStored(() => world.stored(siteKey, 'csp'), () => true);
      const records = await world.exported(siteKey, 'csp');
      const refused = world.requestsFor(siteKey).filter((entry) => entry.method == 'POST' && entry.status >= 400);
      verdict(
        'both',
        () => {
          expect(records.map((record) => [record.effective_directive, record.blocked_uri]).sort()).toEqual([...NATIVE_VIOLATIONS].sort());
          // Each stored once, from both: the browser's own report's fields, the beacon's copy merged in.
          for (const record of records) expect({ source: record.source, sources: [...record.sources].sort() }).toEqual({ source: 'report-uri', sources: ['beacon', 'report-uri'] });
          // A refused report is a report lost wherever the beacon does not run.
          expect(refused).toEqual([]);
        },
        () => `${records.length} reports stored for ${NATIVE_VIOLATIONS.length} violations${refusals(siteKey)}`,
      );
    });

    fidelityCases({ world: () => world, browser: () => browser, verdict });
    sourceMapCases({ world: () => world, browser: () => browser, verdict });
  });
};
