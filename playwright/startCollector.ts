import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from 'h3';
import { createCollector, createSqliteStore, hashApiKey, newApiKey, newSiteKey } from '../collector/index';
import { distFile } from './distFile';

/** Where one test's reports go, and how the fixture reads them back (the read API). */
export interface ReportTarget {
  /** The collector's URL, e.g. `http://127.0.0.1:40123`; the beacon posts to `URL/api/...`. */
  url: string;
  siteKey: string;
  /** A key that may read this site (`GET /api/v1/sites/{site_key}/...`). */
  apiKey: string;
  /** Read only what was received from this time on (ms): a shared, existing collector's site. */
  since?: number | undefined;
  /**
   * Lets the site accept reports from a page's origin. An existing collector's site must allow its
   * origins beforehand (`sitebeacon site add --origin ...`): there this does nothing.
   */
  allowOrigin(origin: string): Promise<void>;
  /** Report requests (POST, PUT) the collector has answered for this site: known in process only. */
  answered?: (() => number) | undefined;
}

/** The paths the beacon posts reports to (docs/wire-format.md), with the site key. */
const REPORT_PATH = /^\/api\/(?:error-reports|csp-reports|performance-sessions)\/([^/]+)$/;

/** A collector running in the test worker. */
export interface WorkerCollector {
  url: string;
  /** A fresh site for one test (no report of another test in it), allowed from no origin yet. */
  newSite(): Promise<ReportTarget>;
  /** Stops the server, closes the store and removes its file. */
  close(): Promise<void>;
}

/**
 * Starts the collector in this process, as `sitebeacon serve` would but on a random loopback port
 * and a temporary SQLite file: no CLI process, no fixed port, nothing left behind. Rate limits are
 * off (a test sends bursts from one address). Sites are read uncached (no `openStore` site cache),
 * so an origin allowed a moment ago is allowed for the next report.
 *
 * @example
 * const collector = await startCollector();
 * const site = await collector.newSite();
 * await site.allowOrigin('http://127.0.0.1:3000');
 * await collector.close();
 */
export const startCollector = async (): Promise<WorkerCollector> => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-playwright-'));
  const store = createSqliteStore({ file: join(dir, 'sitebeacon.db') });
  let url = '';
  const answered = new Map<string, number>();
  const app = createCollector({
    store,
    beaconFile: distFile('beacon.min.js'),
    links: { appUrl: () => url },
    rateLimits: { perIp: 0, perSite: 0 },
    // Called once a request is answered (a report's 202 comes after its commit): a flush waits for these.
    logRequest: ({ method, path }) => {
      const siteKey = method != 'OPTIONS' && REPORT_PATH.exec(path)?.[1];
      if (siteKey) answered.set(siteKey, (answered.get(siteKey) ?? 0) + 1);
    },
    logError: (error) => console.error('sitebeacon/playwright: the collector failed on a request', error),
  });
  // HTTP/1.1, as `sitebeacon serve` (collector/cli/serve.ts): idle connections close, so close() returns.
  const server = serve(app, { port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false, node: { http2: false } });
  await server.ready();
  url = `http://127.0.0.1:${(server.node!.server!.address() as AddressInfo).port}`;

  return {
    url,
    async newSite() {
      const siteKey = newSiteKey();
      const origins = new Set<string>();
      await store.sites.create({ site_key: siteKey, name: 'playwright', allowed_origins: [] });
      const apiKey = newApiKey();
      await store.apiKeys.create({ key_hash: hashApiKey(apiKey), name: 'sitebeacon/playwright', site_key: siteKey });
      return {
        url,
        siteKey,
        apiKey,
        answered: () => answered.get(siteKey) ?? 0,
        async allowOrigin(origin) {
          if (origins.has(origin)) return;
          origins.add(origin);
          await store.sites.put({ site_key: siteKey, name: 'playwright', allowed_origins: [...origins] });
        },
      };
    },
    async close() {
      const httpServer = server.node?.server as { closeAllConnections?: () => void } | undefined;
      httpServer?.closeAllConnections?.();
      await server.close(true);
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
