// `npm run bench`: prints a table of the measured figures and writes them to bench/results/.
// Loopback only; every part is bounded in time. (Ingest and read-path parts come with issue 6.)
import { mkdirSync, writeFileSync } from 'node:fs';
import { beaconBench } from './beacon.mjs';

const results = { date: new Date().toISOString(), node: process.version, beacon: await beaconBench() };

const { size, webVitalsSize, start, loads } = results.beacon;
const ms = (value) => Number(value.toFixed(3));
console.table({
  'beacon.min.js raw (B)': { value: size.raw, 'web-vitals IIFE': webVitalsSize.raw },
  'beacon.min.js gzip -9 (B)': { value: size.gzip, goal: 4608, 'web-vitals IIFE': webVitalsSize.gzip },
  'beacon.min.js brotli 11 (B)': { value: size.brotli, goal: 4096, 'web-vitals IIFE': webVitalsSize.brotli },
  [`start, cold renderer (ms, median of ${loads})`]: { value: ms(start.beacon.coldMs), goal: 1, 'web-vitals IIFE': ms(start['web-vitals'].coldMs), 'empty script': ms(start.empty.coldMs) },
  [`start, warm reload (ms, median of ${loads})`]: { value: ms(start.beacon.warmMs), goal: 1, 'web-vitals IIFE': ms(start['web-vitals'].warmMs), 'empty script': ms(start.empty.warmMs) },
});

mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
const file = new URL(`./results/bench-${results.date.replace(/[:.]/g, '-')}.json`, import.meta.url);
writeFileSync(file, JSON.stringify(results, null, 2));
console.log(`written to ${file.pathname}`);
