// The seeding of the dashboard bench (README, "Performance goals": a site with 1,000,000 stored reports): one site
// whose reports look like a shop's month, written through the SQLite store in batches (the same
// inserts, fingerprints and per-day aggregates as ingest, without HTTP in between).
//
// Of `reports`: 70% error reports, 20% CSP violation reports, 10% performance sessions (each with
// five metrics). Spread evenly over 30 days; fingerprints (5,000), pages (1,000) and blocked hosts
// (2,000) follow a Zipf law, as real ones do: a few are most of the traffic, most are rare.
// Deterministic (a seeded PRNG), so two runs seed the same database.
import { createSqliteStore, newCspReport, newErrorReport, newSiteKey } from '../dist/collector.js';

const DAY = 86_400_000;
const BATCH = 500;
/** Batches queued together: the store's group commit writes them in one transaction. */
const PER_COMMIT = 20;

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
const random = (seed) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** A Zipf(s = 1.1) pick among `n` ranks (0 = the most frequent), by the cumulative weights. */
const zipf = (n, next) => {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let rank = 0; rank < n; rank++) cumulative[rank] = total += 1 / (rank + 1) ** 1.1;
  return () => {
    const target = next() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle] < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
};

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
];
const DIRECTIVES = ['script-src-elem', 'img-src', 'connect-src', 'style-src-elem', 'font-src', 'frame-src'];
const PROPERTIES = ['price', 'items', 'length', 'id', 'map', 'then', 'name', 'total'];

/**
 * Seeds `file` (a new SQLite database) with one site of `reports` reports ending at `now`; resolves
 * to the site key and what was stored.
 *
 * @example
 * const { siteKey } = await seedDashboardSite({ file: '/tmp/bench.db', reports: 20_000 });
 */
export const seedDashboardSite = async ({ file, reports, now = Date.now() }) => {
  const next = random(14);
  const fingerprint = zipf(5_000, next);
  const page = zipf(1_000, next);
  const host = zipf(2_000, next);
  const pageUrl = () => {
    const rank = page();
    return rank == 0 ? 'https://shop.example/' : `https://shop.example/products/${rank}?ref=${rank % 7}`;
  };
  const store = createSqliteStore({ file });
  const started = performance.now();
  const counts = { errors: Math.round(reports * 0.7), csp: Math.round(reports * 0.2), sessions: 0 };
  counts.sessions = reports - counts.errors - counts.csp;
  try {
    const { site_key: siteKey } = await store.sites.create({ site_key: newSiteKey(), name: 'Bench shop', allowed_origins: ['https://shop.example'] });
    // Batches in time order over the 30 days, each received at one moment.
    const at = (done, total) => now - 30 * DAY + Math.floor((done / total) * 30 * DAY);
    const context = (done, total) => ({ received_at: at(done, total), user_agent: USER_AGENTS[Math.floor(next() * USER_AGENTS.length)] });
    const queued = [];
    const queue = async (write) => {
      queued.push(write);
      if (queued.length >= PER_COMMIT) await Promise.all(queued.splice(0));
    };
    for (let done = 0; done < counts.errors; done += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, counts.errors - done) }, () => {
        const rank = fingerprint();
        const kind = rank % 20 == 19 ? 'resource_error' : rank % 10 == 3 ? 'unhandled_rejection' : 'javascript_error';
        return newErrorReport({
          error_type: kind,
          error_name: kind == 'javascript_error' ? (rank % 3 ? 'TypeError' : 'ReferenceError') : undefined,
          error_message: kind == 'resource_error' ? `https://cdn.shop.example/img/${rank}.webp failed to load` : `Cannot read properties of undefined (reading '${PROPERTIES[rank % 8]}${rank}')`,
          stack: `TypeError: x\n    at handler${rank} (https://shop.example/assets/app-${rank % 40}.js:1:${rank * 13})\n    at dispatch (https://shop.example/assets/vendor.js:2:4410)`,
          source_url: `https://shop.example/assets/app-${rank % 40}.js`,
          page_url: pageUrl(),
          session_id: `s${Math.floor(next() * 200_000)}`,
          count: next() < 0.9 ? 1 : 2 + Math.floor(next() * 3),
        });
      });
      await queue(store.errors.insert(siteKey, rows, context(done, counts.errors)));
    }
    for (let done = 0; done < counts.csp; done += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, counts.csp - done) }, () => {
        const rank = host();
        const directive = DIRECTIVES[rank % DIRECTIVES.length];
        const blocked = rank == 0 ? 'inline' : rank == 1 ? 'eval' : `https://cdn${rank}.example/${directive == 'img-src' ? 'pixel.gif' : 'lib.js'}`;
        return newCspReport({ report_type: 'csp-violation', document_uri: pageUrl(), violated_directive: directive, effective_directive: directive, blocked_uri: blocked, disposition: 'enforce' });
      });
      await queue(store.csp.insert(siteKey, rows, context(done, counts.csp)));
    }
    for (let done = 0; done < counts.sessions; done += BATCH) {
      const writes = [];
      const { received_at, user_agent } = context(done, counts.sessions);
      for (let i = done; i < Math.min(done + BATCH, counts.sessions); i++) {
        // Log-normal-ish values around web-vitals' thresholds: most good, a tail of poor.
        const spread = () => Math.exp((next() + next() + next() - 1.5) * 1.2);
        const metrics = {
          LCP: { value: Math.round(1800 * spread()) },
          INP: { value: Math.round(120 * spread()) },
          CLS: { value: Math.round(0.05 * spread() * 1000) / 1000 },
          FCP: { value: Math.round(1200 * spread()) },
          TTFB: { value: Math.round(350 * spread()) },
        };
        writes.push(store.performance.upsert(siteKey, { session_id: `v${i}`, page_url: pageUrl(), navigation_type: 'navigate', metrics }, { received_at, user_agent }));
      }
      await queue(Promise.all(writes));
    }
    await Promise.all(queued);
    return { siteKey, ...counts, seedSeconds: (performance.now() - started) / 1000 };
  } finally {
    await store.close();
  }
};
