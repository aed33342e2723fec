// Source maps (docs/source-maps.md, "The map thread"), against `sitebeacon serve` (dist/cli.js) on a
// fresh SQLite file, over loopback:
// - symbolication: one report whose stack has 50 frames in a 5 MB bundle's map, read through
//   GET .../issues/{fingerprint}/events: cold (a restarted collector: the map read from the store and
//   compiled on the map thread), then warm (the compiled map kept), the median of `reads` warm reads;
//   and how long GET /api/test-connectivity takes (median of 5) idle, and while the cold read's map is compiled;
// - memory: the serve process's RSS (VmRSS, the map thread included), sampled every 100 ms, while
//   `maps` maps of `mapMb` MB are uploaded one after the other, each to its own release; while a
//   50-frame report of each release is symbolicated (its events read), warm (as uploaded), then cold
//   after a restart (each map read from the store and compiled again); and once the map thread has
//   ended for want of jobs (30 s). The soak's budget is 128 MB (README, goals).
//   BENCH_MAPS=20  BENCH_MAP_MB=20  maps uploaded for the memory figure
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seeded, vlq } from '../collector/testing/mapMaking.mjs';
import { serveArgs, startServer } from './startServer.mjs';

const { createSqliteStore, hashApiKey, newApiKey, newSiteKey } = await import('../dist/collector.js');


/**
 * A bundle's map of about `mb` MB, as a minifier writes one: `lines` generated lines of mappings
 * (5 fields, small deltas), 400 sources whose text is about 40 % of the map, 5,000 names.
 */
export const syntheticMap = (mb, lines = 40) => {
  const next = seeded(mb * 7919);
  const target = mb * 1_000_000;
  const sourceCount = 400;
  const sourceChars = Math.floor((target * 0.4) / sourceCount);
  const line = '  const value = compute(items, options);\n';
  const sourcesContent = Array.from({ length: sourceCount }, () => line.repeat(Math.ceil(sourceChars / line.length)).slice(0, sourceChars));
  const names = Array.from({ length: 5000 }, (_, index) => `name${index}`);
  const mappingChars = target * 0.6;
  const generated = [];
  let chars = 0;
  let [source, originalLine, originalColumn, name] = [0, 0, 0, 0];
  for (let l = 0; l < lines; l++) {
    const segments = [];
    let column = 0;
    while (chars < (mappingChars * (l + 1)) / lines) {
      const step = 1 + Math.floor(next() * 30);
      const nextSource = Math.min(sourceCount - 1, Math.max(0, source + Math.floor(next() * 3) - 1));
      const nextLine = Math.max(0, originalLine + Math.floor(next() * 5) - 2);
      const nextColumn = Math.floor(next() * 60);
      const nextName = Math.floor(next() * names.length);
      const segment = vlq(step) + vlq(nextSource - source) + vlq(nextLine - originalLine) + vlq(nextColumn - originalColumn) + vlq(nextName - name);
      [source, originalLine, originalColumn, name] = [nextSource, nextLine, nextColumn, nextName];
      column += step;
      segments.push(segment);
      chars += segment.length + 1;
    }
    generated.push(segments.join(','));
  }
  const sources = sourcesContent.map((_, index) => `src/module${index}.js`);
  return JSON.stringify({ version: 3, file: 'app.min.js', sources, sourcesContent, names, mappings: generated.join(';') });
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value, digits = 1) => Number(value.toFixed(digits));

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Resolves after `ms`. */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const sourceMapsBench = async ({ maps = 20, mapMb = 20, reads = 9 } = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-bench-maps-'));
  const db = join(dir, 'maps.db');
  const store = createSqliteStore({ file: db });
  const site = newSiteKey();
  await store.sites.create({ site_key: site, name: 'Shop', allowed_origins: ['https://shop.example'] });
  const key = newApiKey();
  await store.apiKeys.create({ key_hash: hashApiKey(key), name: 'bench', site_key: site });
  await store.close();
  const auth = { authorization: `Bearer ${key}` };
  const upload = (url, release, map) =>
    fetch(`${url}/api/v1/sites/${site}/sourcemaps`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ release, url: '~/app.min.js', map }) });
  let server = await startServer(serveArgs(db, '--log-level', 'error'));
  try {
    // Symbolication: one report of 50 frames spread over the 5 MB map's lines.
    const map = syntheticMap(5);
    const uploaded = await upload(server.url, '5mb', map);
    if (uploaded.status != 201) throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`);
    const frames = Array.from({ length: 50 }, (_, index) => `    at f${index} (https://shop.example/app.min.js:${1 + (index % 40)}:${1 + index * 997})`);
    const ingest = await fetch(`${server.url}/api/error-reports/${site}`, {
      method: 'POST',
      // A browser's user agent: a report from no known browser is a bot's, left out of the issues' list.
      headers: { origin: 'https://shop.example', 'content-type': 'application/json', 'user-agent': CHROME },
      body: JSON.stringify({ error_type: 'javascript_error', error_name: 'TypeError', error_message: 'bench', stack: `TypeError: bench\n${frames.join('\n')}`, release: '5mb' }),
    });
    if (ingest.status != 202) throw new Error(`ingest: ${ingest.status}`);
    const { items } = await (await fetch(`${server.url}/api/v1/sites/${site}/issues?status=all`, { headers: auth })).json();
    // Cold: a restarted collector has parsed nothing (the upload left this one's map parsed).
    await server.stop();
    server = await startServer(serveArgs(db, '--log-level', 'error'));
    const events = `${server.url}/api/v1/sites/${site}/issues/${items[0].fingerprint}/events?limit=1`;
    const read = async () => {
      const start = performance.now();
      const body = await (await fetch(events, { headers: auth })).json();
      return { ms: performance.now() - start, mapped: body.items[0].frames.filter((frame) => frame.original).length };
    };
    const connectivity = async () => {
      const start = performance.now();
      await (await fetch(`${server.url}/api/test-connectivity`)).arrayBuffer();
      return performance.now() - start;
    };
    const idle = [];
    for (let index = 0; index < 5; index++) idle.push(await connectivity());
    const coldRead = read();
    // While the map is parsed on the map thread: the HTTP thread's answers meanwhile.
    await sleep(500);
    const during = [];
    for (let index = 0; index < 5; index++) during.push(await connectivity());
    const cold = await coldRead;
    const warm = [];
    for (let index = 0; index < reads; index++) warm.push(await read());
    const symbolication = {
      mapMb: round(map.length / 1e6),
      frames: 50,
      mapped: cold.mapped,
      coldMs: round(cold.ms),
      warmMs: round(median(warm.map((one) => one.ms)), 2),
      connectivityIdleMs: round(median(idle), 2),
      connectivityDuringColdMs: round(median(during), 2),
    };

    // Memory: `maps` big maps uploaded, then symbolicated against, warm and cold, RSS sampled throughout.
    const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))[1]) / 1024;
    const big = syntheticMap(mapMb);
    const before = rssMb();
    let samples = [];
    let sampler = setInterval(() => samples.push(rssMb()), 100);
    /** The peak RSS of a phase, and a new phase's sampling. */
    const phase = () => {
      clearInterval(sampler);
      const peak = Math.max(...samples, rssMb());
      samples = [];
      sampler = setInterval(() => samples.push(rssMb()), 100);
      return round(peak);
    };
    const uploadsMs = [];
    const statuses = {};
    for (let index = 0; index < maps; index++) {
      const start = performance.now();
      const response = await upload(server.url, `big-${index}`, big);
      await response.arrayBuffer();
      uploadsMs.push(performance.now() - start);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
    const uploadPeak = phase();
    const bigFingerprints = [];
    for (let index = 0; index < maps; index++) {
      const sent = await fetch(`${server.url}/api/error-reports/${site}`, {
        method: 'POST',
        headers: { origin: 'https://shop.example', 'content-type': 'application/json', 'user-agent': CHROME },
        body: JSON.stringify({ error_type: 'javascript_error', error_name: 'TypeError', error_message: `big map ${'ghijklmnopqrstuvwxyz'[index % 20].repeat(1 + Math.floor(index / 20))}`, stack: `TypeError: big\n${frames.join('\n')}`, release: `big-${index}` }),
      });
      await sent.arrayBuffer();
    }
    const listed = await (await fetch(`${server.url}/api/v1/sites/${site}/issues?status=all&limit=100`, { headers: auth })).json();
    for (const item of listed.items) if (item.fingerprint != items[0].fingerprint) bigFingerprints.push(item.fingerprint);
    /** Reads each big release's event (50 frames), answering the frames mapped, summed. */
    const symbolicateAll = async () => {
      let mappedFrames = 0;
      for (const fingerprint of bigFingerprints) {
        const body = await (await fetch(`${server.url}/api/v1/sites/${site}/issues/${fingerprint}/events?limit=1`, { headers: auth })).json();
        mappedFrames += body.items[0].frames.filter((frame) => frame.original).length;
      }
      return mappedFrames;
    };
    const warmMapped = await symbolicateAll();
    const warmPeak = phase();
    clearInterval(sampler);
    await server.stop();
    server = await startServer(serveArgs(db, '--log-level', 'error'));
    const restarted = rssMb();
    samples = [];
    sampler = setInterval(() => samples.push(rssMb()), 100);
    const coldStart = performance.now();
    const coldMapped = await symbolicateAll();
    const coldAllMs = performance.now() - coldStart;
    const coldPeak = phase();
    clearInterval(sampler);
    const after = rssMb();
    // The map thread ends 30 s after its last job (collector/sourcemaps/mapWorker.ts, MAP_THREAD_IDLE_MS).
    await sleep(35_000);
    const afterIdle = rssMb();
    const memory = {
      maps,
      mapMb: round(big.length / 1e6),
      statuses,
      uploadMedianMs: round(median(uploadsMs)),
      reports: bigFingerprints.length,
      framesMapped: { warm: warmMapped, cold: coldMapped },
      coldReadOfAllMs: round(coldAllMs),
      rssMb: { before: round(before), uploadsPeak: uploadPeak, warmReadsPeak: warmPeak, restarted: round(restarted), coldReadsPeak: coldPeak, after: round(after), afterThreadIdleEnd: round(afterIdle) },
    };
    return { symbolication, memory };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};

/** Prints the figures as the other parts do. */
export const printSourceMapsBench = ({ symbolication, memory }) => {
  console.log('\nSource maps: a 50-frame stack against a 5 MB map (GET .../events), and RSS with big maps uploaded');
  console.table({ symbolication });
  console.table({ memory: { ...memory, statuses: JSON.stringify(memory.statuses), rssMb: JSON.stringify(memory.rssMb) } });
};

if (import.meta.url == `file://${process.argv[1]}`) {
  const figures = await sourceMapsBench({ maps: Number(process.env.BENCH_MAPS || 20), mapMb: Number(process.env.BENCH_MAP_MB || 20) });
  console.log(JSON.stringify(figures, null, 2));
}
