// The dashboard's site page over a big site (README, "Performance goals": on a site with 1,000,000
// stored reports, the site page is interactive in under 1 s). Seeds one site (bench/dashboardSeed.mjs), starts a real
// `sitebeacon serve` on it, signs in, and loads /sites/{site_key} (the default range, 7 days) in
// Debian's Chromium, each load in a fresh browser context (cold HTTP cache, the session cookie set).
//
// "Interactive" here: from navigation start (performance.timeOrigin) to the later of
//   - the mark the page sets once its first screen (the site's name, the activity chart and the
//     error groups with their trends) shows the seeded data and that frame has been painted
//     (dashboard/components/useRenderedMark.ts, SITE_RENDERED), and
//   - the end of the last long task (> 50 ms, Long Tasks API, observed from before the first
//     script) until every section below it has been drawn too (SITE_COMPLETE: CSP violations,
//     Web Vitals, pages) and the main thread has had no long task for QUIET_MS after that.
// So a page that shows its first screen but keeps the main thread busy drawing the rest is not
// counted as interactive before it is done; "complete" (SITE_COMPLETE) is reported beside it.
// The figure is the median of BENCH_DASHBOARD_LOADS loads (default 5).
//
// Alone: BENCH_DASHBOARD_REPORTS=20000 node bench/dashboard.mjs (after npm run build).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../e2e/chromium.mjs';
import { seedDashboardSite } from './dashboardSeed.mjs';
import { CLI, serveArgs, startServer } from './startServer.mjs';

const SITE_RENDERED = 'sitebeacon:site-rendered';
const SITE_COMPLETE = 'sitebeacon:site-complete';
const QUIET_MS = 500;
const median = (samples) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];

/**
 * CPU time (ms, user + system) the process `pid` has used, from /proc (Linux); undefined elsewhere.
 * On a shared machine the wall time of a load varies with what else runs; the collector's CPU time
 * for it varies much less, so it is reported beside it.
 */
const cpuMsOf = (pid) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return undefined;
  }
};

// Runs in the page before any of its scripts: collects long tasks (the API's entries are not
// buffered for a late observer).
const observeLongTasks = () => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  }).observe({ type: 'longtask' });
};

/** One load of `url` in a fresh context: the interactive time and what it is made of (ms from navigation start). */
const loadOnce = async (browser, url, storageState) => {
  const context = await browser.newContext({ storageState, viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(observeLongTasks);
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, SITE_COMPLETE, { timeout: 60_000, polling: 20 });
    // Quiet: no long task ends within QUIET_MS after the page is complete or after the last one.
    await page.waitForFunction(
      ([name, quiet]) => {
        const last = Math.max(performance.getEntriesByName(name)[0].startTime, ...window.__longTasks.map((task) => task.end));
        return performance.now() - last >= quiet;
      },
      [SITE_COMPLETE, QUIET_MS],
      { timeout: 60_000, polling: 50 },
    );
    return await page.evaluate(([name, complete]) => {
      const rendered = performance.getEntriesByName(name)[0].startTime;
      const navigation = performance.getEntriesByType('navigation')[0];
      const api = performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/api/v1/'));
      const longTasks = window.__longTasks;
      return {
        interactiveMs: Math.max(rendered, ...longTasks.map((task) => task.end)),
        renderedMs: rendered,
        completeMs: performance.getEntriesByName(complete)[0].startTime,
        htmlMs: navigation.responseEnd,
        apiMs: Math.max(...api.map((entry) => entry.responseEnd)) - Math.min(...api.map((entry) => entry.startTime)),
        slowestApi: api.map((entry) => ({ path: new URL(entry.name).pathname.split('/').pop(), ms: Math.round(entry.duration) })).sort((a, b) => b.ms - a.ms)[0],
        longTasks: longTasks.length,
        longTaskMs: longTasks.reduce((sum, task) => sum + task.end - task.start, 0),
        groups: document.querySelectorAll('[data-testid="error-groups"] tbody tr').length,
        charts: document.querySelectorAll('.chart canvas').length,
      };
    }, [SITE_RENDERED, SITE_COMPLETE]);
  } finally {
    await context.close();
  }
};

/**
 * Seeds `reports`, serves them, and times the site page in Chromium `loads` times.
 *
 * @example
 * const figures = await dashboardBench({ reports: 20_000 });
 */
export const dashboardBench = async ({ reports = 1_000_000, loads = 5 } = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-dashboard-'));
  const db = join(dir, 'bench.db');
  let server;
  let browser;
  try {
    const seeded = await seedDashboardSite({ file: db, reports });
    const { password } = JSON.parse(execFileSync(process.execPath, [CLI, 'user', 'add', '--email', 'bench@shop.example', '--db', db, '--json'], { encoding: 'utf8' }));
    // Warnings and errors only: a request log line per asset and API call would fill the bench's output.
    server = await startServer(serveArgs(db, '--host', '127.0.0.1', '--log-level', 'warn'));
    browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    // Signs in as the form does; each load's context starts with the cookie.
    const signIn = await browser.newContext();
    const answer = await signIn.request.post(`${server.url}/api/v1/session`, { data: { email: 'bench@shop.example', password }, headers: { origin: server.url } });
    if (answer.status() != 204) throw new Error(`sign-in answered ${answer.status()}`);
    const storageState = await signIn.storageState();
    await signIn.close();

    const url = `${server.url}/sites/${seeded.siteKey}`;
    const samples = [];
    const load = loadavg()[0];
    for (let i = 0; i < loads; i++) {
      const cpuBefore = cpuMsOf(server.child.pid);
      const sample = await loadOnce(browser, url, storageState);
      const cpuAfter = cpuMsOf(server.child.pid);
      samples.push({ ...sample, serverCpuMs: cpuBefore === undefined ? NaN : cpuAfter - cpuBefore });
    }
    const first = samples[0];
    if (!first.groups || !first.charts) throw new Error(`the site page showed ${first.groups} error groups and ${first.charts} charts`);
    const pick = (key) => Math.round(median(samples.map((sample) => sample[key])));
    return {
      reports,
      stored: { errors: seeded.errors, csp: seeded.csp, sessions: seeded.sessions },
      seedSeconds: Math.round(seeded.seedSeconds),
      loads,
      interactiveMs: pick('interactiveMs'),
      renderedMs: pick('renderedMs'),
      completeMs: pick('completeMs'),
      apiMs: pick('apiMs'),
      longTaskMs: pick('longTaskMs'),
      serverCpuMs: pick('serverCpuMs'),
      loadAverage: Number(((load + loadavg()[0]) / 2).toFixed(1)),
      samplesMs: samples.map((sample) => Math.round(sample.interactiveMs)),
      slowestApi: first.slowestApi,
      errorGroupsShown: first.groups,
      charts: first.charts,
    };
  } finally {
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};

if (import.meta.url == `file://${process.argv[1]}`) {
  const figures = await dashboardBench({ reports: Number(process.env.BENCH_DASHBOARD_REPORTS || 1_000_000), loads: Number(process.env.BENCH_DASHBOARD_LOADS || 5) });
  console.log(JSON.stringify(figures, null, 2));
}
