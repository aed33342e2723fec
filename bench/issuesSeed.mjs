// What bench/issues.mjs (SQLite) and bench/issuesPostgres.mjs (PostgreSQL) share: the seeded reports
// (5,000 fingerprints on a Zipf curve, reports spread at random over 30 days, 2% of them from bots,
// several browsers, OSes, releases and pages, 50,000 visitors), the SQL that derives the per-day
// groups, the issues and the issues' per-day counts from them as the schema's migrations do, and
// the timed reads: each list through the collector's app, in-process, and the site page's reads.
const DAY = 86_400_000;

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

/** The columns of each row `reportRows` yields, in order. */
export const REPORT_COLUMNS = ['site_key', 'received_at', 'error_type', 'error_message', 'error_name', 'stack', 'page_url', 'session_id', 'count',
  'user_agent', 'fingerprint', 'visitor', 'release', 'environment', 'browser', 'os', 'device', 'bot'];

/** The seeded reports, oldest first, as rows of REPORT_COLUMNS. */
export function* reportRows(siteKey, { reports, fingerprints, now, newErrorReport }) {
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
  for (const [n, at] of times.entries()) {
    const group = groups[pick()];
    const [browser, os, device, bot] = clientOf();
    const visitor = `v${Math.floor(next() * 50_000).toString(16).padStart(15, '0')}`;
    yield [siteKey, at, group.error_type, group.error_message, group.error_name, `TypeError: x\n    at handler (https://shop.example/app.js:1:${n % 5000})`,
      `https://shop.example/page${Math.floor(next() * 50)}`, `s${Math.floor(n / 3)}`, 1 + (n % 3), `agent ${browser}`, group.fingerprint, visitor,
      RELEASES[Math.min(4, Math.floor(((at - now + 30 * DAY) / (30 * DAY)) * 5))], n % 20 == 0 ? 'staging' : 'production', browser, os, device, bot];
  }
}

const PERSON = '(bot IS NULL OR bot = 0)';
const FIELDS = { page: 'page_url', browser: 'browser', os: 'os', device: 'device', release: 'release', environment: 'environment' };

/**
 * What the migrations derive from stored reports, in SQL both stores run: the per-day groups, the
 * issues, and the issues' per-day counts of people's reports (collector/store/issueDays.ts).
 */
export const DERIVED_SQL = [
  `INSERT INTO error_groups SELECT site_key, fingerprint, received_at / ${DAY}, COUNT(*), SUM(coalesce(count, 1)), MIN(received_at), MAX(received_at),
    MAX(error_type), MAX(error_name), MAX(error_message) FROM error_reports GROUP BY site_key, fingerprint, received_at / ${DAY}`,
  `INSERT INTO issues SELECT site_key, fingerprint, MAX(error_type), MAX(error_name), MAX(error_message), MIN(first_seen), MAX(last_seen),
    NULL, NULL, 'unresolved', 0, NULL, NULL, 0, NULL FROM error_groups GROUP BY site_key, fingerprint`,
  `INSERT INTO issue_visitor_days SELECT DISTINCT site_key, fingerprint, received_at / ${DAY}, visitor FROM error_reports WHERE ${PERSON} AND visitor IS NOT NULL`,
  `INSERT INTO issue_day_counts SELECT site_key, '', '', received_at / ${DAY}, fingerprint, COUNT(*), SUM(coalesce(count, 1)), COUNT(DISTINCT visitor)
    FROM error_reports WHERE ${PERSON} GROUP BY site_key, received_at / ${DAY}, fingerprint`,
  ...Object.entries(FIELDS).map(([field, column]) => `INSERT INTO issue_day_counts SELECT site_key, '${field}', ${column}, received_at / ${DAY}, fingerprint,
    COUNT(*), SUM(coalesce(count, 1)), 0 FROM error_reports WHERE ${PERSON} AND ${column} IS NOT NULL GROUP BY site_key, ${column}, received_at / ${DAY}, fingerprint`),
];

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Median wall and CPU time (ms, the whole process: its threads too) of `calls` runs of `run`. */
const timed = async (calls, run) => {
  const wall = [];
  const cpu = [];
  for (let i = 0; i < calls; i++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await run();
    wall.push(performance.now() - t0);
    const used = process.cpuUsage(cpu0);
    cpu.push((used.user + used.system) / 1000);
  }
  return { medianMs: median(wall), cpuMs: median(cpu) };
};

/**
 * Times each issues list, then the site page's reads (dashboard/siteReads.ts) for its default
 * range, 7 days, as its boot script starts them (dashboard/boot.ts): the sites, the activity series
 * and the issues list at once, then the CSP groups, vitals and pages at once.
 */
export const timeIssueReads = async (app, { siteKey, key, now, calls }) => {
  const read = async (path) => {
    const response = await app.fetch(new Request(`http://127.0.0.1${path}`, { headers: { authorization: `Bearer ${key}` } }));
    if (response.status != 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    await response.json();
  };
  const site = `/api/v1/sites/${siteKey}`;
  const iso = (ms) => encodeURIComponent(new Date(ms).toISOString());
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
  await read(`${site}/issues`); // the reader thread started, its statements prepared
  for (const [name, query] of Object.entries(queries)) figures[name] = await timed(calls, () => read(`${site}/issues${query}`));
  const since = iso(now - 7 * DAY);
  figures['site page reads, 7 days'] = await timed(calls, async () => {
    await Promise.all(['/api/v1/sites', `${site}/daily?since=${since}&p75=false`, `${site}/issues?since=${since}&status=unresolved`].map(read));
    await Promise.all([`${site}/csp-groups?since=${since}&limit=50`, `${site}/vitals?since=${since}`, `${site}/pages?since=${since}`].map(read));
  });
  return figures;
};

/** Prints a bench's figures as a table. */
export const printIssueFigures = (title, result) => {
  console.log(`\nThe issues' list (${title}): ${result.reports} reports, ${result.fingerprints} fingerprints, seeded in ${result.seedSeconds.toFixed(1)} s; median of ${result.calls} calls (goal < 300 ms; the site page's reads, goal < 1 s)`);
  console.table(Object.fromEntries(Object.entries(result.figures).map(([name, { medianMs, cpuMs }]) => [name, { 'median ms': Math.round(medianMs), 'CPU ms': Math.round(cpuMs) }])));
};
