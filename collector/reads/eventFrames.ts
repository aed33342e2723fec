import type { SymbolicatedFrame } from '../core/stack/symbolicate';
import { BY_DEBUG_ID, type FramesReport } from '../sourcemaps/mapJobs';
import { collectGarbage } from '../sourcemaps/collectGarbage';
import { sourceMapsOf } from '../sourcemaps/sourceMapsOf';
import type { SourceMapStore } from '../store/contract';

export { mapUrlsOf } from '../core/stack/mapUrls';

/** Map texts looked up in the store for one page of events, at most: the work of a read is bounded whatever the stacks name. */
export const MAX_MAP_LOOKUPS = 64;
/** Rounds of asking the map thread for frames: a map it let go of between two rounds (its cache is full) is read again, this many times at most. */
const ROUNDS = 3;

/**
 * The map a script URL's debug ID names: when every map of the site stored for that URL, whatever
 * the release, has the same debug ID (one build ever served it, as a content-hashed file name is),
 * the latest map with that ID; otherwise none (docs/source-maps.md, "Debug IDs").
 */
const packedByUrlDebugId = async (maps: SourceMapStore, siteKey: string, url: string) => {
  const ids = await maps.debugIds(siteKey, url);
  return ids.length == 1 && ids[0] !== null ? maps.packedByDebugId(siteKey, ids[0]!) : undefined;
};

/**
 * Each report's frames, mapped by its release's maps (core/stack/symbolicate.ts) on the store's map
 * thread (sourcemaps/mapWorker.ts), which parses the stacks and keeps the compiled maps: it answers
 * the frames, or the maps it lacks, whose texts are then read from the store one at a time (at most
 * MAX_MAP_LOOKUPS a call, by release and URL, or by the URL's debug ID for a report without a
 * release; past that a frame is `no_map`), each sent to the thread to be compiled and kept, and the
 * frames asked again. Rejects with MapThreadUnavailable when the thread stopped or is full (a 503).
 *
 * @example
 * const frames = await eventFrames(store.sourceMaps, 'k', [{ release: '1.2', stack: 'TypeError: …\n    at t (https://shop.example/app.min.js:1:74)' }]);
 */
export const eventFrames = async (maps: SourceMapStore, siteKey: string, reports: readonly FramesReport[]): Promise<SymbolicatedFrame[][]> => {
  const { worker } = sourceMapsOf(maps);
  const plain = reports.map(({ release, stack }) => ({ release: release ?? null, stack: stack ?? null }));
  const texts = new Map<string, string | null>();
  let lookups = 0;
  for (let round = 1; ; round++) {
    const answer = await worker.run({ type: 'frames', siteKey, reports: plain, texts: [...texts], final: round == ROUNDS });
    if ('frames' in answer) return answer.frames;
    if (!('missing' in answer)) throw new Error('the source map thread answered no frames');
    // One text at a time, compiled and kept on the thread before the next is read: a page's maps
    // never sit in memory together (docs/source-maps.md, "The map thread").
    for (const { key, release, url } of answer.missing) {
      texts.set(key, null);
      if (lookups++ >= MAX_MAP_LOOKUPS) continue;
      // As stored, compressed: the thread decompresses it, this thread never holds the text.
      const text = release == BY_DEBUG_ID ? await packedByUrlDebugId(maps, siteKey, url) : await maps.packed(siteKey, release, url);
      if (text === undefined) continue;
      texts.delete(key);
      await worker.run({ type: 'index', key, text });
      collectGarbage();
    }
  }
};
