import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test as base } from '@playwright/test';
import { CLI, parseNdjson, spawnCollector } from '../collector/testing/spawnCollector';

const run = promisify(execFile);
const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));

/** A real `sitebeacon serve` process on a random port, with a fresh SQLite file. */
export interface Collector {
  /** The collector's origin as pages see it: `http://localhost:PORT` (pages live on 127.0.0.1). */
  origin: string;
  /** `http://127.0.0.1:PORT`: the collector's public URL, where the dashboard is opened. */
  url: string;
  db: string;
  /** Runs `sitebeacon site add --origin ... --json`; returns the site key. */
  addSite(...origins: string[]): Promise<string>;
  /** Runs `sitebeacon export --site KEY --kind KIND`; returns the stored records. */
  exported(siteKey: string, kind: 'errors' | 'csp' | 'performance'): Promise<Record<string, unknown>[]>;
  /** Runs `sitebeacon user add --email EMAIL [--site KEY...] --json`; returns the generated password. */
  addUser(email: string, ...siteKeys: string[]): Promise<string>;
  /** Runs any other CLI command against this collector's database. */
  cli(...args: string[]): Promise<{ stdout: string; stderr: string }>;
  /** Stops the process (SIGTERM), as a collector that went down. */
  stop(): Promise<void>;
}

/** A plain HTTP server on a second origin that serves the test's pages. */
export interface PageServer {
  /** `http://127.0.0.1:PORT`: a different origin from the collector's, so CORS is real. */
  origin: string;
  /** Serves `body` at `path` with these headers (e.g. a Content-Security-Policy). */
  route(path: string, body: string, headers?: OutgoingHttpHeaders): void;
}

export const test = base.extend<{ collector: Collector; pages: PageServer }>({
  collector: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-e2e-'));
    const db = join(dir, 'sitebeacon.db');
    const running = await spawnCollector({ db });
    const cli = (...args: string[]) => run(process.execPath, [CLI, ...args, '--db', db]);
    const stop = async () => void (await running.stop());
    await use({
      origin: `http://localhost:${running.port}`,
      url: running.url,
      db,
      cli,
      stop,
      async addSite(...origins) {
        const { stdout } = await cli('site', 'add', ...origins.flatMap((origin) => ['--origin', origin]), '--json');
        return (JSON.parse(stdout) as { site_key: string }).site_key;
      },
      async addUser(email, ...siteKeys) {
        const { stdout } = await cli('user', 'add', '--email', email, ...siteKeys.flatMap((key) => ['--site', key]), '--json');
        return (JSON.parse(stdout) as { password: string }).password;
      },
      async exported(siteKey, kind) {
        return parseNdjson((await cli('export', '--site', siteKey, '--kind', kind)).stdout);
      },
    });
    await stop();
    rmSync(dir, { recursive: true, force: true });
  },

  pages: async ({}, use) => {
    const routes = new Map<string, { body: string; headers: OutgoingHttpHeaders }>();
    const server: Server = createServer((req, res) => {
      const path = new URL(req.url!, 'http://x').pathname;
      const route = routes.get(path);
      if (route) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...route.headers });
        return res.end(route.body);
      }
      // Static helpers such as app.js live in e2e/pages/.
      try {
        const body = readFileSync(join(PAGES, path.replace(/^\/+/, '').replace(/\.\./g, '')));
        res.writeHead(200, { 'content-type': path.endsWith('.js') ? 'text/javascript' : 'text/html', 'cache-control': 'no-store' });
        res.end(body);
      } catch {
        res.writeHead(404).end('not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await use({
      origin: `http://127.0.0.1:${port}`,
      route: (path, body, headers = {}) => routes.set(path, { body, headers }),
    });
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  },
});

/**
 * The plain script tag the collector generates for a site (`sitebeacon snippet --no-stub`; README,
 * "Adding the beacon to a site"): the default snippet puts the early-capture stub before it
 * (docs/early-capture.md).
 */
export const beaconTag = (collector: Collector, siteKey: string) =>
  `<script src="${collector.origin}/beacon.js" data-site-key="${siteKey}" data-ingest-origin="${collector.origin}" async></script>`;

export { expect } from '@playwright/test';
