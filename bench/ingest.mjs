// Ingest throughput: autocannon against the bare node:http ceiling and
// against `sitebeacon serve` on a fresh SQLite file (rate limits off: all load comes from one
// loopback address), side by side in one run. Loopback only, fixed durations.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveArgs, startServer } from './startServer.mjs';
import autocannon from 'autocannon';

const CEILING = new URL('./ceiling.mjs', import.meta.url).pathname;


/** A realistic ~600-byte error report. */
export const errorReport = (i = 0) => ({
  error_type: 'javascript_error',
  error_message: `Cannot read properties of undefined (reading 'price') #${i % 50}`,
  error_name: 'TypeError',
  stack:
    "TypeError: Cannot read properties of undefined (reading 'price')\n    at renderCart (https://shop.example/assets/app.3f2a9c.js:1:48213)\n    at HTMLButtonElement.onClick (https://shop.example/assets/app.3f2a9c.js:1:50110)\n    at https://shop.example/assets/vendor.91ab.js:2:1200",
  source_url: 'https://shop.example/assets/app.3f2a9c.js',
  line: 1,
  column: 48213,
  page_url: 'https://shop.example/cart?step=2',
  timestamp: 1795000000000,
  session_id: 'lq3k9x-7f2a9c1b7e',
});

/** A Reporting API batch of CSP violations, as Chromium sends it. */
export const cspBatch = (size) =>
  Array.from({ length: size }, (_, i) => ({
    age: 10,
    type: 'csp-violation',
    url: 'https://shop.example/cart?step=2',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
    body: {
      blockedURL: `https://cdn${i % 7}.example.net/pixel.gif`,
      columnNumber: 108,
      disposition: 'enforce',
      documentURL: 'https://shop.example/cart?step=2',
      effectiveDirective: 'img-src',
      lineNumber: 1,
      originalPolicy: "default-src 'self'; img-src 'self'; report-to g",
      referrer: '',
      sample: '',
      sourceFile: 'https://shop.example/cart',
      statusCode: 200,
    },
  }));

export const scenarios = [
  { name: 'error report, single', path: '/api/error-reports', type: 'application/json', body: JSON.stringify(errorReport()), reportsPerRequest: 1 },
  { name: 'error reports, batch of 50', path: '/api/error-reports', type: 'application/json', body: JSON.stringify(Array.from({ length: 50 }, (_, i) => errorReport(i))), reportsPerRequest: 50 },
  { name: 'CSP, Reporting API array of 1', path: '/api/csp-reports', type: 'application/reports+json', body: JSON.stringify(cspBatch(1)), reportsPerRequest: 1 },
  // Each report a new violation (its own blocked URL), as real traffic mostly is: every one stored.
  // The one above repeats a single report, which a collector stores once per REPEAT_WINDOW_MS (3 s).
  {
    name: 'CSP, Reporting API array of 1, each distinct', path: '/api/csp-reports', type: 'application/reports+json', body: JSON.stringify(cspBatch(1)), reportsPerRequest: 1,
    vary: (request, n) => ({ ...request, body: request.body.replace('pixel.gif', `pixel-${n}.gif`) }),
  },
  // One violation, each report from a new visitor (user agent): every one stored, all copies of one
  // violation (a popular page's blocked resource), which a copy of it is matched against.
  {
    name: 'CSP, Reporting API array of 1, one violation from ever new visitors', path: '/api/csp-reports', type: 'application/reports+json', body: JSON.stringify(cspBatch(1)), reportsPerRequest: 1,
    vary: (request, n) => ({ ...request, headers: { ...request.headers, 'user-agent': `visitor ${n}` } }),
  },
  { name: 'CSP, Reporting API array of 50', path: '/api/csp-reports', type: 'application/reports+json', body: JSON.stringify(cspBatch(50)), reportsPerRequest: 50 },
  // The array above holds 7 distinct reports, and repeats them: after the first request its reports
  // are repeats (REPEAT_WINDOW_MS), and are not stored. Here every report is a new violation.
  {
    name: 'CSP, Reporting API array of 50, each distinct', path: '/api/csp-reports', type: 'application/reports+json', body: JSON.stringify(cspBatch(50)), reportsPerRequest: 50,
    vary: (request, n) => {
      let k = 0;
      return { ...request, body: request.body.replace(/pixel\.gif/g, () => `pixel-${n}-${k++}.gif`) };
    },
  },
  // A flood of broken bodies, the cheapest attack: every one answered 400 invalid_json (its non-2xx
  // are the answers), nothing stored. It must not cost more than a valid report.
  { name: 'invalid JSON, single (answered 400)', path: '/api/error-reports', type: 'application/json', body: '{"error_type": "javascript_error", "error_message": ', reportsPerRequest: 0 },
];

/**
 * For a scenario that varies its requests: each request made by its `vary`, numbered. One count
 * for every load in this process: two collectors loaded at once (bench/postgres.mjs) get distinct requests too.
 */
let requestNumber = 0;
const variedRequests = (vary) => [{ setupRequest: (request) => vary(request, requestNumber++) }];

/** Loads `url` with one of `scenarios` for `duration` s at `connections`; resolves with autocannon's result. */
export const load = (url, scenario, duration, connections = 50) =>
  new Promise((resolve, reject) =>
    autocannon(
      {
        url: url + scenario.path, connections, duration, method: 'POST', headers: { 'content-type': scenario.type }, body: scenario.body,
        ...(scenario.vary ? { requests: variedRequests(scenario.vary) } : {}),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );

export const ingestBench = async ({ duration = 5 } = {}) => {
  const rows = [];
  for (const scenario of scenarios) {
    const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-bench-'));
    const ceiling = await startServer([CEILING]);
    const collector = await startServer(serveArgs(join(dir, 'bench.db'), '--log-level', 'silent'));
    try {
      const measured = {};
      for (const [target, server] of [['ceiling', ceiling], ['sitebeacon', collector]]) {
        const result = await load(server.url, scenario, duration);
        measured[target] = {
          requestsPerSecond: result.requests.average,
          reportsPerSecond: result.requests.average * scenario.reportsPerRequest,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
        };
      }
      rows.push({ scenario: scenario.name, ...measured, ratio: measured.sitebeacon.requestsPerSecond / measured.ceiling.requestsPerSecond });
    } finally {
      await ceiling.stop();
      await collector.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
};
