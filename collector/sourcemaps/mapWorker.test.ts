import { afterEach, describe, expect, test } from 'vitest';
import { MAX_MAP_SEGMENTS } from '../core/stack/parseSourceMap';
import { bigSourceMap as bigMap } from '../testing/bigSourceMap';
import { createMapWorker, MapThreadUnavailable, MAX_MAP_JOBS } from './mapWorker';
const small = JSON.stringify({ version: 3, sources: ['src/a.js'], names: [], mappings: 'AAAA' });

describe('the source map thread', { timeout: 60_000 }, () => {
  let worker: ReturnType<typeof createMapWorker>;
  afterEach(() => worker.stop());

  test('checks maps on a thread of its own; an invalid map and one over the mappings bound are invalid', async () => {
    worker = createMapWorker();
    expect(await worker.run({ type: 'check', text: small, key: null, index: false })).toEqual({ valid: true, index: null });
    expect(worker.threaded()).toBe(true);
    expect(await worker.run({ type: 'check', text: '{"version":3,"sources":[],"names":[],"mappings":"A!"}', key: null, index: false })).toEqual({ valid: false });
    const tooMany = JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings: 'A,'.repeat(MAX_MAP_SEGMENTS) + 'A' });
    expect(await worker.run({ type: 'check', text: tooMany, key: null, index: false })).toEqual({ valid: false });
  });

  test(`at most ${MAX_MAP_JOBS} jobs under way: the next is refused at once, and taken once they are answered`, async () => {
    worker = createMapWorker();
    const text = bigMap(20_000);
    const jobs = Array.from({ length: MAX_MAP_JOBS }, () => worker.run({ type: 'check', text, key: null, index: false }));
    await expect(worker.run({ type: 'check', text: small, key: null, index: false })).rejects.toBeInstanceOf(MapThreadUnavailable);
    expect(await Promise.all(jobs)).toEqual(jobs.map(() => ({ valid: true, index: null })));
    expect(await worker.run({ type: 'check', text: small, key: null, index: false })).toEqual({ valid: true, index: null });
  });

  test('a thread whose heap a map exhausts fails its jobs with MapThreadUnavailable; the next job starts another', async () => {
    worker = createMapWorker({ resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 } });
    // The text (20 MB) alone is more than the heap given.
    await expect(worker.run({ type: 'check', text: bigMap(MAX_MAP_SEGMENTS), key: null, index: false })).rejects.toBeInstanceOf(MapThreadUnavailable);
    expect(await worker.run({ type: 'check', text: small, key: null, index: false })).toEqual({ valid: true, index: null });
    expect(worker.threaded()).toBe(true);
  });

  test('a thread ended while it parses fails that job; the next job is answered', async () => {
    worker = createMapWorker();
    const parsing = worker.run({ type: 'check', text: bigMap(1_000_000), key: null, index: false });
    await worker.stop();
    await expect(parsing).rejects.toBeInstanceOf(MapThreadUnavailable);
    expect(await worker.run({ type: 'check', text: small, key: null, index: false })).toEqual({ valid: true, index: null });
  });

  test('kept maps map frames; the maps it lacks are asked for, a key it forgot is asked for again', async () => {
    worker = createMapWorker();
    const key = 'site\n1.0\n~/a.js';
    const reports = [{ release: '1.0', stack: 'Error: x\n    at f (https://shop.example/a.js:1:1)' }];
    const frames = { type: 'frames' as const, siteKey: 'site', reports, texts: [] as Array<[string, string | null]>, final: false };
    expect(await worker.run(frames)).toEqual({
      missing: [
        { key: 'site\n1.0\nhttps://shop.example/a.js', release: '1.0', url: 'https://shop.example/a.js' },
        { key, release: '1.0', url: '~/a.js' },
      ],
    });
    await worker.run({ type: 'check', text: small, key, index: false });
    const answer = await worker.run({ ...frames, texts: [['site\n1.0\nhttps://shop.example/a.js', null]] });
    expect(answer).toMatchObject({ frames: [[{ original: { file: 'src/a.js', line: 1, column: 1 }, unmapped: null }]] });
    await worker.run({ type: 'forget', keys: [key] });
    expect(await worker.run({ ...frames, texts: [['site\n1.0\nhttps://shop.example/a.js', null]] })).toMatchObject({ missing: [{ key }] });
  });

  test('a thread without a job for idleMs ends, giving its maps back; the next job starts another, whose cache is empty', async () => {
    worker = createMapWorker({ idleMs: 1 });
    const key = 'site\n1.0\n~/a.js';
    await worker.run({ type: 'check', text: small, key, index: false });
    expect(worker.running()).toBe(true);
    while (worker.running()) await new Promise((resolve) => setTimeout(resolve, 5));
    const frames = { type: 'frames' as const, siteKey: 'site', reports: [{ release: '1.0', stack: 'Error: x\n    at f (~/a.js:1:1)' }], texts: [], final: false };
    expect(await worker.run(frames)).toEqual({ missing: [{ key, release: '1.0', url: '~/a.js' }] });
    expect(worker.running()).toBe(true);
  });
});
