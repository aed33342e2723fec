// The issues' list at 1,000,000 reports (docs/issues.md, "The list at a million reports"):
// `GET /api/v1/sites/{site_key}/issues` through the collector's app, in-process, on a SQLite file
// seeded in bulk: 5,000 fingerprints on a Zipf curve, reports spread at random over 30 days, 2% of
// them from bots, several browsers, OSes, releases and pages, 50,000 visitors. The reports go in
// with SQL in one transaction, then the per-day groups and the issues are derived from them as the
// schema's own migrations derive them (the per-day groups, the issues, the issues' per-day counts by
// field value and visitors): seeding through the ingest path would take minutes.
// For each query: the median wall time and the median CPU time of the process (the collector's
// reader thread included), over `calls` calls.
//   BENCH_ISSUES_REPORTS=1000000  reports seeded
//   BENCH_DIST=../dist            the build to measure (a directory relative to this file)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const DAY = 86_400_000;
const dist = process.env.BENCH_DIST || '../dist';
const { createCollector, createSqliteStore, hashApiKey, newErrorReport, newSiteKey } = await import(`${dist}/collector.js`);

const CLIENTS = [
  ['Chrome', 'Windows', 'desktop', 0, 40],
  ['Safari', 'iOS', 'mobile', 0, 25],
  ['Chrome', 'Android', 'mobile', 0, 20],
  ['Firefox', 'Linux', 'desktop', 0, 8],
  ['Edge', 'Windows', 'desktop', 0, 5],
  ['Googlebot', null, 'desktop', 1, 2],
];
const RELEASES = ['1.0', '1.1', '1.2', '1.3', '2.0'];

/** A generator of numbers in [0, 1): the same data on every run. */
const random = (seed) => () => ((seed = (Math.imul(seed ^ (seed >>> 15), 2246822507) + 0x6d2b79f5) >>> 0), seed / 2 ** 32);

/** Fingerprint indexes on a Zipf curve (s = 1) over `count`, by inverse of its cumulative weights. */
const zipf = (count, next) => {
  const cumulative = [];
  let total = 0;
  for (let rank = 1; rank <= count; rank++) cumulative.push((total += 1 / rank));
  return () => {
    const target = next() * total;
    let low = 0;
    let high = count - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle] < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
};

const seedReports = (file, siteKey, { reports, fingerprints, now }) => {
  const next = random(42);
  const pick = zipf(fingerprints, next);
  const groups = Array.from({ length: fingerprints }, (_, index) => {
    // Letters, not digits: digits in a message are one group's (docs/grouping.md).
    const field = String(index).replace(/\d/g, (digit) => 'ghijklmnop'[Number(digit)]);
    const report = { error_type: index % 10 == 0 ? 'resource_error' : 'javascript_error', error_name: 'TypeError', error_message: `Cannot read properties of undefined (reading 'field_${field}')` };
    return { ...report, fingerprint: newErrorReport(report).fingerprint };
  });
  const weights = CLIENTS.reduce((sum, client) => sum + client[4], 0);
  const clientOf = () => {
    let at = next() * weights;
    for (const client of CLIENTS) if ((at -= client[4]) < 0) return client;
    return CLIENTS[0];
  };
  const times = Array.from({ length: reports }, () => now - Math.floor(next() * 30 * DAY)).sort((a, b) => a - b);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(`INSERT INTO error_reports (site_key, received_at, error_type, error_message, error_name, stack, page_url, session_id, count,
    user_agent, fingerprint, visitor, release, environment, browser, os, device, bot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  db.transaction(() => {
    for (const [n, at] of times.entries()) {
      const group = groups[pick()];
      const [browser, os, device, bot] = clientOf();
      const visitor = `v${Math.floor(next() * 50_000).toString(16).padStart(15, '0')}`;
      insert.run(siteKey, at, group.error_type, group.error_message, group.error_name, `TypeError: x\n    at handler (https://shop.example/app.js:1:${n % 5000})`,
        `https://shop.example/page${Math.floor(next() * 50)}`, `s${Math.floor(n / 3)}`, 1 + (n % 3), `agent ${browser}`, group.fingerprint, visitor,
        RELEASES[Math.min(4, Math.floor(((at - now + 30 * DAY) / (30 * DAY)) * 5))], n % 20 == 0 ? 'staging' : 'production', browser, os, device, bot);
    }
    db.exec(`INSERT INTO error_groups SELECT site_key, fingerprint, received_at / ${DAY}, COUNT(*), SUM(coalesce(count, 1)), MIN(received_at), MAX(received_at),
      error_type, error_name, error_message FROM error_reports GROUP BY site_key, fingerprint, received_at / ${DAY}`);
    db.exec(`INSERT INTO issues SELECT site_key, fingerprint, error_type, error_name, error_message, MIN(first_seen), MAX(last_seen), NULL, NULL, 'unresolved', 0, NULL, NULL, 0, NULL
      FROM error_groups GROUP BY site_key, fingerprint`);
    // The per-day counts of people's reports, as schema version 18 fills them (collector/store/issueDays.ts).
    const person = '(bot IS NULL OR bot = 0)';
    db.exec(`INSERT INTO issue_visitor_days SELECT DISTINCT site_key, fingerprint, received_at / ${DAY}, visitor FROM error_reports
      WHERE ${person} AND visitor IS NOT NULL`);
    db.exec(`INSERT INTO issue_day_counts SELECT site_key, '', '', received_at / ${DAY}, fingerprint, COUNT(*), SUM(coalesce(count, 1)), COUNT(DISTINCT visitor)
      FROM error_reports WHERE ${person} GROUP BY site_key, received_at / ${DAY}, fingerprint`);
    for (const [field, column] of Object.entries({ page: 'page_url', browser: 'browser', os: 'os', device: 'device', release: 'release', environment: 'environment' })) {
      db.exec(`INSERT INTO issue_day_counts SELECT site_key, '${field}', ${column}, received_at / ${DAY}, fingerprint, COUNT(*), SUM(coalesce(count, 1)), 0
        FROM error_reports WHERE ${person} AND ${column} IS NOT NULL GROUP BY site_key, ${column}, received_at / ${DAY}, fingerprint`);
    }
  })();
  db.exec('ANALYZE');
  db.close();
};

/**
 * The site page's reads (dashboard/siteReads.ts) for its default range, 7 days, as its boot script
 * starts them (dashboard/boot.ts): the sites, the activity series and the issues list at once, then
 * the CSP groups, vitals and pages at once. Wall and CPU time of the whole, median of `calls`.
 */
const sitePageReads = async (app, siteKey, key, now, calls) => {
  const since = encodeURIComponent(new Date(now - 7 * DAY).toISOString());
  const site = `/api/v1/sites/${siteKey}`;
  const read = (paths) =>
    Promise.all(
      paths.map(async (path) => {
        const response = await app.fetch(new Request(`http://127.0.0.1${path}`, { headers: { authorization: `Bearer ${key}` } }));
        if (response.status != 200) throw new Error(`${path} answered ${response.status}`);
        await response.json();
      }),
    );
  const wall = [];
  const cpu = [];
  for (let i = 0; i < calls; i++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await read(['/api/v1/sites', `${site}/daily?since=${since}&p75=false`, `${site}/issues?since=${since}&status=unresolved`]);
    await read([`${site}/csp-groups?since=${since}&limit=50`, `${site}/vitals?since=${since}`, `${site}/pages?since=${since}`]);
    wall.push(performance.now() - t0);
    const used = process.cpuUsage(cpu0);
    cpu.push((used.user + used.system) / 1000);
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { medianMs: median(wall), cpuMs: median(cpu) };
};

export const issuesBench = async ({ reports = Number(process.env.BENCH_ISSUES_REPORTS || 1_000_000), fingerprints = 5000, calls = 9 } = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-issues-'));
  const file = join(dir, 'bench.db');
  const now = Date.now();
  try {
    const setup = createSqliteStore({ file });
    const site = await setup.sites.create({ site_key: newSiteKey(), name: 'Bench', allowed_origins: ['https://shop.example'] });
    const key = 'sbk_bench_' + Math.random().toString(36).slice(2);
    await setup.apiKeys.create({ key_hash: hashApiKey(key), name: 'bench', site_key: site.site_key });
    await setup.close();
    const started = performance.now();
    seedReports(file, site.site_key, { reports, fingerprints, now });
    const seedSeconds = (performance.now() - started) / 1000;
    const store = createSqliteStore({ file });
    const app = createCollector({ store, beaconFile: '/dev/null', links: { appUrl: () => 'http://127.0.0.1' }, rateLimits: { perIp: 0, perSite: 0 } });
    const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const timeCall = async (query) => {
      const wall = [];
      const cpu = [];
      for (let i = 0; i < calls; i++) {
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        const response = await app.fetch(new Request(`http://127.0.0.1/api/v1/sites/${site.site_key}/issues${query}`, { headers: { authorization: `Bearer ${key}` } }));
        if (response.status != 200) throw new Error(`issues${query} answered ${response.status}: ${await response.text()}`);
        await response.json();
        wall.push(performance.now() - t0);
        const used = process.cpuUsage(cpu0);
        cpu.push((used.user + used.system) / 1000);
      }
      return { medianMs: median(wall), cpuMs: median(cpu) };
    };
    const iso = (ms) => new Date(ms).toISOString();
    const days30 = `since=${iso(now - 30 * DAY)}`;
    const queries = {
      default: '',
      q: '?q=field_hi',
      page: `?page=${encodeURIComponent('https://shop.example/page7')}`,
      browser: '?browser=Firefox',
      os: '?os=iOS',
      device: '?device=mobile',
      release: '?release=2.0',
      environment: '?environment=staging',
      'os, 30 days': `?os=iOS&${days30}`,
      'os and release (two filters)': '?os=iOS&release=2.0',
      'sort=occurrences': '?sort=occurrences',
      'sort=occurrences, 30 days': `?sort=occurrences&${days30}`,
      'sort=visitors': '?sort=visitors',
      'sort=visitors, 30 days': `?sort=visitors&${days30}`,
      'bots=include': '?bots=include',
      '24 h': `?since=${iso(now - DAY)}`,
    };
    const figures = {};
    await timeCall(''); // the reader thread started, its statements prepared
    for (const [name, query] of Object.entries(queries)) figures[name] = await timeCall(query);
    figures['site page reads, 7 days'] = await sitePageReads(app, site.site_key, key, now, calls);
    await store.close();
    return { reports, fingerprints, seedSeconds, calls, figures };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** Prints the figures of `issuesBench` as a table. */
export const printIssuesBench = (result) => {
  console.log(`\nThe issues' list (SQLite): ${result.reports} reports, ${result.fingerprints} fingerprints, seeded in ${result.seedSeconds.toFixed(1)} s; median of ${result.calls} calls (goal < 300 ms; the site page's reads, goal < 1 s)`);
  console.table(Object.fromEntries(Object.entries(result.figures).map(([name, { medianMs, cpuMs }]) => [name, { 'median ms': Math.round(medianMs), 'CPU ms': Math.round(cpuMs) }])));
};

// `node bench/issues.mjs` alone, after a build.
if (import.meta.url == `file://${process.argv[1]}`) printIssuesBench(await issuesBench());
