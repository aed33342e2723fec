// The CSP policy suggestion under a flood (docs/hostile-input.md, "Bounded reads"): `GET /api/v1/csp-projects/{id}/suggested-policy`
// with 50,000 distinct blocked hosts stored, timed from a client, while another client polls the
// health endpoint, one request in flight at a time: its p99 shows how long the suggestion holds the
// collector's event loop. `sitebeacon serve` runs in its own process, on a fresh SQLite file seeded
// through the store. Loopback only, a bounded number of calls.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveArgs, startServer } from './startServer.mjs';
import { createSqliteStore, hashApiKey, newCspReport, newSiteKey } from '../dist/collector.js';

// The health check a load balancer polls (docs/durability.md, "Health"): it also takes the store's write lock,
// so a suggestion holding the event loop or the database shows in its latency.
const HEALTH_PATH = '/api/health';


const percentile = (samples, share) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
};

/** Polls the health endpoint until `until()` says stop; resolves with the latencies (ms). */
const pollHealth = async (url, until) => {
  const samples = [];
  while (!until()) {
    const t0 = performance.now();
    const response = await fetch(url + HEALTH_PATH);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${HEALTH_PATH} answered ${response.status}`);
    samples.push(performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return samples;
};

export const cspSuggestionBench = async ({ hosts = 50_000, calls = 50 } = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-csp-'));
  const file = join(dir, 'bench.db');
  let server;
  try {
    const store = createSqliteStore({ file });
    const site = await store.sites.create({ site_key: newSiteKey(), name: 'Bench', allowed_origins: ['https://shop.example'] });
    const key = 'sbk_bench_' + Math.random().toString(36).slice(2);
    await store.apiKeys.create({ key_hash: hashApiKey(key), name: 'bench', site_key: site.site_key });
    const project = await store.cspProjects.create({
      site_key: site.site_key, name: 'Bench', mode: 'report-only', base_policy: "default-src 'self'; img-src 'self'; script-src 'self'",
    });
    const violation = (directive, blocked) => ({
      report_type: 'csp-violation', document_uri: 'https://shop.example/', effective_directive: directive, violated_directive: directive, blocked_uri: blocked,
    });
    const now = Date.now();
    // What the page really needs, reported often, then the flood: one report per distinct host.
    await store.csp.insert(site.site_key, Array.from({ length: 200 }, (_, n) => violation(n % 2 ? 'img-src' : 'script-src-elem', `https://cdn${n % 4}.shop.example/a`)).map(newCspReport), { received_at: now });
    for (let offset = 0; offset < hosts; offset += 5000) {
      const batch = Array.from({ length: Math.min(5000, hosts - offset) }, (_, i) => {
        const n = offset + i;
        return violation(['img-src', 'script-src-elem', 'connect-src', 'font-src'][n % 4], `https://h${n}.flood${n % 500}.example/x.js`);
      });
      await store.csp.insert(site.site_key, batch.map(newCspReport), { received_at: now });
    }
    await store.close();

    server = await startServer(serveArgs(file, '--log-level', 'silent'));
    const { url } = server;
    const suggest = async () => {
      const t0 = performance.now();
      const response = await fetch(`${url}/api/v1/csp-projects/${project.id}/suggested-policy`, { headers: { authorization: `Bearer ${key}` } });
      const body = await response.json();
      if (response.status != 200) throw new Error(`suggested-policy answered ${response.status}: ${JSON.stringify(body)}`);
      return { ms: performance.now() - t0, body };
    };
    await suggest(); // warm the statement cache and the page cache

    let done = false;
    const idle = await pollHealth(url, (() => { const end = performance.now() + 1000; return () => performance.now() > end; })());
    const during = pollHealth(url, () => done);
    const suggestionMs = [];
    let last;
    for (let i = 0; i < calls; i++) {
      const { ms, body } = await suggest();
      suggestionMs.push(ms);
      last = body;
    }
    done = true;
    const busy = await during;
    return {
      hosts,
      calls,
      suggestion: { medianMs: percentile(suggestionMs, 0.5), p99Ms: percentile(suggestionMs, 0.99), policyLength: last.policy.length, evidence: last.evidence },
      health: { path: HEALTH_PATH, idleP99Ms: percentile(idle, 0.99), samples: busy.length, p50Ms: percentile(busy, 0.5), p99Ms: percentile(busy, 0.99), maxMs: Math.max(...busy) },
    };
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};
