import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { OutgoingHttpHeaders } from 'node:http';
import { createServer, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CLI, parseNdjson, selfSignedCertificate, spawnCollector } from '../../collector/testing/spawnCollector';
import { forget, stopOnExit } from './cleanup';

const run = promisify(execFile);
const PAGES = fileURLToPath(new URL('../pages/', import.meta.url));

/** What `sitebeacon snippet --json` prints (collector/core/setupUrls.ts SiteSetup), as far as the cases read it. */
export interface SiteSetup {
  snippet: string;
  beacon_url: string;
  csp_sources: Record<'script-src' | 'connect-src', string[]>;
}

export type Kind = 'errors' | 'csp' | 'performance';
export type StoredRecord = Record<string, any>;

/** One line of the collector's request log (README: one JSON line per request on stderr). */
export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

/**
 * A real `sitebeacon serve` over HTTPS (`https://localhost:PORT`, a self-signed certificate made by
 * openssl) and an HTTPS page server on another origin (`https://127.0.0.1:PORT`), as in the
 * fixtures' captures: the browser's own reports and the beacon's requests are cross-site.
 *
 * @example
 * const world = await startWorld();
 * const siteKey = await world.addSite();
 * world.route('/shop', '<!doctype html>...', { 'content-security-policy': "default-src 'self'" });
 * const records = await world.exported(siteKey, 'errors');
 * await world.close();
 */
export const startWorld = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-browsers-'));
  const db = join(dir, 'sitebeacon.db');
  const { cert, key } = selfSignedCertificate(dir);
  const ca = readFileSync(cert);
  const cli = async (...args: string[]) => (await run(process.execPath, [CLI, ...args, '--db', db])).stdout;
  // Browsers and the suite's polling all come from 127.0.0.1: the rate limits are not under test.
  const collector = await spawnCollector({ db, args: ['--tls-cert', cert, '--tls-key', key, '--rate-limit', '0', '--site-rate-limit', '0'] });
  stopOnExit(collector.child.pid!);
  const stopCollector = async () => {
    await collector.stop();
    forget(collector.child.pid!);
  };
  const routes = new Map<string, { body: string; headers: OutgoingHttpHeaders }>();
  const pages = createServer({ cert: ca, key: readFileSync(key) }, (req, res) => {
    const path = new URL(req.url!, 'https://x').pathname;
    const route = routes.get(path);
    if (route) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...route.headers });
      return res.end(route.body);
    }
    // The beacon e2e tests' page script (e2e/pages/playground.js), served from here too.
    try {
      const body = readFileSync(join(PAGES, path.replace(/^\/+/, '').replace(/\.\./g, '')));
      res.writeHead(200, { 'content-type': path.endsWith('.js') ? 'text/javascript' : 'text/html', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  try {
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    const apiKey = (JSON.parse(await cli('key', 'create', '--json')) as { api_key: string }).api_key;
    const collectorOrigin = `https://localhost:${collector.port}`;
    const pageOrigin = `https://127.0.0.1:${(pages.address() as { port: number }).port}`;

    /** GET on the collector's read API (installation-wide key), verified against our certificate. */
    const readApi = <T>(path: string) =>
      new Promise<T>((resolve, reject) => {
        const outgoing = request(`${collector.url}/api/v1${path}`, { ca, headers: { authorization: `Bearer ${apiKey}` }, timeout: 30_000 }, (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => (response.statusCode == 200 ? resolve(JSON.parse(text) as T) : reject(new Error(`GET ${path}: ${response.statusCode} ${text}`))));
        });
        outgoing.on('timeout', () => outgoing.destroy(new Error(`GET ${path} timed out`)));
        outgoing.on('error', reject).end();
      });
    const READ_PATHS: Record<Kind, string> = { errors: 'error-reports', csp: 'csp-reports', performance: 'performance-sessions' };

    return {
      collectorOrigin,
      pageOrigin,
      /** The certificate both servers use, for another HTTPS server of the test's (delayingProxy.ts). */
      tls: { cert: ca, key: readFileSync(key) },
      /** Serves `body` at `path` on the page origin with these headers (a policy, Reporting-Endpoints). */
      route: (path: string, body: string, headers: OutgoingHttpHeaders = {}) => void routes.set(path, { body, headers }),
      /** `sitebeacon site add --origin PAGE_ORIGIN`: a fresh site, so each case sees only its own records. */
      addSite: async () => (JSON.parse(await cli('site', 'add', '--origin', pageOrigin, '--json')) as { site_key: string }).site_key,
      /**
       * `sitebeacon snippet --site SITE_KEY --public-url URL --json`: the site's setup as the
       * collector generates it (the snippet with the early-capture stub, its CSP sources).
       */
      setup: async (siteKey: string, publicUrl = collectorOrigin) =>
        JSON.parse(await cli('snippet', '--site', siteKey, '--public-url', publicUrl, '--json')) as SiteSetup,
      /** What the collector stored, through the read API: cheap enough to poll. */
      stored: async (siteKey: string, kind: Kind) =>
        (await readApi<{ data: StoredRecord[] }>(`/sites/${siteKey}/${READ_PATHS[kind]}?limit=1000`)).data,
      /** GET on the read API (`/sites/KEY/issues`...), with the installation's key: what the collector serves. */
      read: readApi,
      /**
       * `sitebeacon sourcemaps upload --site KEY --release R --url-prefix PREFIX --json DIR`: the real
       * CLI against the running collector over HTTPS (trusting the test's certificate through
       * NODE_EXTRA_CA_CERTS), with the installation's key. One JSON line per map.
       */
      uploadSourceMaps: async (siteKey: string, release: string, prefix: string, dir: string) => {
        const args = ['sourcemaps', 'upload', '--site', siteKey, '--release', release, '--url-prefix', prefix, '--collector', collector.url, '--json', dir];
        const env = { ...process.env, SITEBEACON_API_KEY: apiKey, NODE_EXTRA_CA_CERTS: cert };
        return parseNdjson((await run(process.execPath, [CLI, ...args], { env })).stdout);
      },
      /** `sitebeacon export`: what the collector stored, as a user sees it; each case's final word. */
      exported: async (siteKey: string, kind: Kind) => parseNdjson(await cli('export', '--site', siteKey, '--kind', kind)),
      /** The collector's request log for one site's paths, e.g. to see a report refused with 403. */
      requestsFor: (siteKey: string): LoggedRequest[] =>
        collector
          .stderr()
          .split('\n')
          .filter((line) => line.startsWith('{') && line.includes(siteKey))
          .flatMap((line) => {
            try {
              return [JSON.parse(line) as LoggedRequest];
            } catch {
              return [];
            }
          })
          .filter((entry) => !entry.path.startsWith('/api/v1/')),
      close: async () => {
        pages.closeAllConnections();
        await new Promise((resolve) => pages.close(resolve));
        await stopCollector();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    pages.close();
    await stopCollector();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
};

export type World = Awaited<ReturnType<typeof startWorld>>;
